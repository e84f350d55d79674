package dev.rtmstreams.processor;

/** {@link MapStateContractTest} on {@link StoreBackend#ROCKS_DB}. */
class MapStateRocksDbTest extends MapStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.ROCKS_DB;
    }
}

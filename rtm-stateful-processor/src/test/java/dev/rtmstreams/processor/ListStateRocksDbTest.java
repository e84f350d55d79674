package dev.rtmstreams.processor;

/** {@link ListStateContractTest} on {@link StoreBackend#ROCKS_DB}. */
class ListStateRocksDbTest extends ListStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.ROCKS_DB;
    }
}

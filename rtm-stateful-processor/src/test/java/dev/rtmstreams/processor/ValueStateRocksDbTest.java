package dev.rtmstreams.processor;

/** {@link ValueStateContractTest} on {@link StoreBackend#ROCKS_DB}. */
class ValueStateRocksDbTest extends ValueStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.ROCKS_DB;
    }
}

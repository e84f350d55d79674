package dev.rtmstreams.processor;

/** {@link MapStateContractTest} on {@link StoreBackend#IN_MEMORY}. */
class MapStateInMemoryTest extends MapStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.IN_MEMORY;
    }
}

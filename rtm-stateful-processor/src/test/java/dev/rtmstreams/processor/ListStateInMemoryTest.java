package dev.rtmstreams.processor;

/** {@link ListStateContractTest} on {@link StoreBackend#IN_MEMORY}. */
class ListStateInMemoryTest extends ListStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.IN_MEMORY;
    }
}

package dev.rtmstreams.processor;

/** {@link ValueStateContractTest} on {@link StoreBackend#IN_MEMORY}. */
class ValueStateInMemoryTest extends ValueStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.IN_MEMORY;
    }
}

package dev.rtmstreams.processor;

import java.time.Duration;

/**
 * {@link MapStateContractTest} on {@link StoreBackend#IN_MEMORY} with the TTL layer on: the non-TTL cases run with a
 * TTL of a day, which nothing outlives within a test.
 */
class MapStateInMemoryTtlLayerTest extends MapStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.IN_MEMORY;
    }

    @Override
    TtlConfig contractTtl() {
        return TtlConfig.of(Duration.ofDays(1));
    }
}

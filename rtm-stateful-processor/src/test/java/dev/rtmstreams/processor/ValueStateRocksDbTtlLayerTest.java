package dev.rtmstreams.processor;

import java.time.Duration;

/**
 * {@link ValueStateContractTest} on {@link StoreBackend#ROCKS_DB} with the TTL layer on: the non-TTL cases run with a
 * TTL of a day, which nothing outlives within a test.
 */
class ValueStateRocksDbTtlLayerTest extends ValueStateContractTest {
    @Override
    StoreBackend backend() {
        return StoreBackend.ROCKS_DB;
    }

    @Override
    TtlConfig contractTtl() {
        return TtlConfig.of(Duration.ofDays(1));
    }
}

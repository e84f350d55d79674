package dev.rtmstreams.adattribution.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.avro.Impression;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class AvroSerdePropertyTest {

    private final AvroSerde<Impression> serde = AvroSerde.of(Impression.class);

    @Property(tries = 300)
    void shouldRoundTripWhenFieldsAreArbitrary(
            @ForAll String id,
            @ForAll String user,
            @ForAll String campaign,
            @ForAll String ad,
            @ForAll String publisher,
            @ForAll long bid,
            @ForAll @LongRange(min = -10_000_000_000_000L, max = 10_000_000_000_000L) long millis) {
        Impression impression = new Impression(id, user, campaign, ad, publisher, bid, Instant.ofEpochMilli(millis));

        assertThat(serde.decode(serde.encode(impression))).isEqualTo(impression);
    }

    @Property(tries = 300)
    void shouldNeverThrowAnythingButDecodeExceptionWhenBytesAreArbitrary(@ForAll byte[] bytes) {
        try {
            serde.decode(bytes);
        } catch (RuntimeException e) {
            assertThat(e).isInstanceOf(AvroDecodeException.class);
        }
    }

    @Property(tries = 200)
    void shouldRejectWhenValidPayloadIsCutShort(@ForAll String id, @ForAll @LongRange(min = 0, max = 9) long cut) {
        Impression impression = new Impression(id, "u", "c", "a", "p", 1L, Instant.EPOCH);
        byte[] bytes = serde.encode(impression);
        byte[] shortened = java.util.Arrays.copyOf(bytes, (int) Math.min(cut + 10, bytes.length - 1));

        assertThatThrownBy(() -> serde.decode(shortened)).isInstanceOf(AvroDecodeException.class);
    }
}

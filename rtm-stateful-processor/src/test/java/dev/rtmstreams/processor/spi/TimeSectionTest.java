package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** The one bounded scan of the time-ordered queues and its lower-bound rule. */
class TimeSectionTest {

    private static final byte TAG = 3;
    private final KeyValueStore<Bytes, byte[]> store = HeapTimeQueueTest.store();
    private final TimeSection section = new TimeSection(store, TAG);

    private void put(long time, String suffix) {
        byte[] start = TimeSection.start(TAG, time);
        byte[] s = suffix.getBytes(StandardCharsets.UTF_8);
        byte[] k = Arrays.copyOf(start, start.length + s.length);
        System.arraycopy(s, 0, k, start.length, s.length);
        store.put(Bytes.wrap(k), new byte[0]);
        section.added(time);
    }

    private List<String> take(TimeSection.Pass[] pass, long maxTime, boolean seekNext, int budget) {
        List<Bytes> keys = new ArrayList<>();
        pass[0] = section.scan(maxTime, seekNext, budget, keys::add);
        List<String> taken = new ArrayList<>();
        for (Bytes k : keys) {
            byte[] b = k.get();
            taken.add(new String(b, 9, b.length - 9, StandardCharsets.UTF_8) + "@" + ByteLayout.getTime(b, 1));
            store.delete(k);
        }
        return taken;
    }

    @Test
    void shouldTakeInKeyOrderWithinTheBudgetAndRaiseTheBoundToWhereThePassEnded() {
        put(10, "b");
        put(10, "a");
        put(20, "c");
        put(40, "d");
        store.put(Bytes.wrap(new byte[] {TAG + 1}), new byte[0]); // the next section's first possible key
        store.put(Bytes.wrap(new byte[] {TAG - 1, 0, 0, 0, 0, 0, 0, 0, 0, 9}), new byte[0]);
        TimeSection.Pass[] pass = new TimeSection.Pass[1];

        assertThat(take(pass, 30, false, 2)).containsExactly("a@10", "b@10");
        assertThat(pass[0]).isEqualTo(new TimeSection.Pass(30, 2, 10, true, 20));
        section.passed(pass[0]);
        assertThat(section.lowerBound()).isEqualTo(10); // on its budget: at the last taken time

        assertThat(take(pass, 30, false, 2)).containsExactly("c@20");
        assertThat(pass[0].more()).isFalse();
        assertThat(pass[0].next()).isEqualTo(Long.MAX_VALUE); // the scan ended at 30: d unseen
        section.passed(pass[0]);
        assertThat(section.lowerBound()).isEqualTo(31); // complete: past the pass's largest time

        assertThat(take(pass, 35, true, 2)).isEmpty();
        assertThat(pass[0]).isEqualTo(new TimeSection.Pass(35, 0, Long.MIN_VALUE, false, 40));
        section.passed(pass[0]);
        assertThat(section.lowerBound()).isEqualTo(40); // read on: at the next entry

        assertThat(take(pass, Long.MAX_VALUE, true, 10)).containsExactly("d@40");
        assertThat(pass[0].next()).isEqualTo(Long.MAX_VALUE); // the next section's keys are not the section's
        section.passed(pass[0]);
        assertThat(section.lowerBound()).isEqualTo(Long.MAX_VALUE);
        assertThat(section.oldest()).isEqualTo(Long.MAX_VALUE);
        assertThat(section.newest()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void shouldKeepTheBoundAtAnEntryAddedDuringAPass() {
        put(10, "a");
        put(50, "b");
        TimeSection.Pass[] pass = new TimeSection.Pass[1];
        assertThat(take(pass, 20, true, 10)).containsExactly("a@10");
        put(15, "late"); // written while the taken entries are handled (a timer handler registering one)
        section.passed(pass[0]);
        assertThat(section.lowerBound()).isEqualTo(15);
        assertThat(take(pass, 60, false, 10)).containsExactly("late@15", "b@50");
    }

    @Test
    void shouldFindTheOldestAndNewestEntry() {
        put(-5, "x");
        put(7, "y");
        put(7, "z");
        assertThat(section.oldest()).isEqualTo(-5);
        assertThat(section.newest()).isEqualTo(7);
    }

    @Test
    void shouldRefuseTheTagWithoutASuccessor() {
        assertThatThrownBy(() -> new TimeSection(store, (byte) 0xFF)).isInstanceOf(IllegalArgumentException.class);
    }
}

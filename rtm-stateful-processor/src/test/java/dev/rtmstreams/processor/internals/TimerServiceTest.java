package dev.rtmstreams.processor.internals;

import static dev.rtmstreams.processor.internals.TestStores.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class TimerServiceTest {

    private final KeyValueStore<Bytes, byte[]> store = TestStores.operatorStore("timers");

    private static List<String> render(List<TimerService.Timer> due) {
        return due.stream().map(t -> new String(t.key()) + "@" + t.time()).toList();
    }

    @Test
    void shouldReturnTimersStrictlyBelowTheBoundInTimeThenKeyOrder() {
        TimerService timers = new TimerService(store, store, 100);
        timers.register(key("b"), 20);
        timers.register(key("a"), 20);
        timers.register(key("a"), 10);
        timers.register(key("c"), 30);
        timers.register(key("a"), 10); // twice: kept once
        assertThat(render(timers.due(30))).containsExactly("a@10", "a@20", "b@20");
        assertThat(render(timers.due(20))).containsExactly("a@10");
        assertThat(timers.list(key("a"))).containsExactly(10L, 20L);
        assertThat(TimerService.list(store, key("c"))).containsExactly(30L);
    }

    @Test
    void shouldForgetDeletedTimersAndBoundEachPass() {
        TimerService timers = new TimerService(store, store, 2);
        for (long t = 1; t <= 5; t++) {
            timers.register(key("k"), t);
        }
        timers.delete(key("k"), 2);
        assertThat(timers.exists(key("k"), 2)).isFalse();
        assertThat(timers.exists(key("k"), 3)).isTrue();
        assertThat(render(timers.due(100))).containsExactly("k@1", "k@3");
        assertThat(timers.list(key("k"))).containsExactly(1L, 3L, 4L, 5L);
    }

    @Test
    void shouldSkipTheScanWhenNothingIsDueAndSeeTimersRegisteredLater() {
        TimerService timers = new TimerService(store, store, 100);
        timers.register(key("k"), 50);
        assertThat(timers.due(40)).isEmpty(); // hint is now 50
        // a timer written behind the service's back is not seen while the hint says nothing is due ...
        store.put(Bytes.wrap(Layout.timerKey(10, key("x"))), Layout.EMPTY);
        assertThat(timers.due(40)).isEmpty();
        // ... but one registered through it lowers the hint
        timers.register(key("y"), 5);
        assertThat(render(timers.due(40))).containsExactly("y@5", "x@10");
    }

    @Test
    void shouldScanFromTheLastFiredTimeYetFindTimersRegisteredEarlierAfterAPass() {
        TimerService timers = new TimerService(store, store, 100);
        timers.register(key("a"), 10);
        timers.register(key("b"), 20);
        timers.register(key("c"), 30);
        List<TimerService.Timer> due = timers.due(25);
        assertThat(render(due)).containsExactly("a@10", "b@20");
        due.forEach(t -> timers.delete(t.key(), t.time()));
        timers.register(key("d"), 15); // registered while firing: below the last fired time
        timers.passDone(true);
        assertThat(render(timers.due(40))).containsExactly("d@15", "c@30");
    }

    @Test
    void shouldWriteThePerKeyIndexOutsideTheStoreOnlyOnceTimersAreListedAndRebuildItFromTheTimeIndex() {
        KeyValueStore<Bytes, byte[]> index = TestStores.operatorStore("timer-keys");
        TimerService timers = new TimerService(store, index, 100);
        timers.resetKeyIndex();
        timers.register(key("a"), 10);
        timers.register(key("a"), 20);
        timers.register(key("b"), 5);
        timers.delete(key("a"), 20);
        // nothing listed yet: the per-key index is not written
        assertThat(perKeyEntries(index)).isZero();
        // tooling reads the time-ordered index of the store, complete either way
        assertThat(TimerService.list(store, key("a"))).containsExactly(10L);
        assertThat(TimerService.list(store, key("b"))).containsExactly(5L);

        // the first list writes the index; from then on register and delete keep it
        assertThat(timers.list(key("a"))).containsExactly(10L);
        assertThat(perKeyEntries(index)).isEqualTo(2);
        timers.register(key("a"), 30);
        timers.delete(key("b"), 5);
        assertThat(timers.list(key("a"))).containsExactly(10L, 30L);
        assertThat(timers.list(key("b"))).isEmpty();
        assertThat(perKeyEntries(index)).isEqualTo(2);

        // a restored store: the index lost its entries and holds a stale one of a timer deleted since
        index.delete(Bytes.wrap(Layout.timerByKey(key("a"), 10)));
        index.put(Bytes.wrap(Layout.timerByKey(key("z"), 99)), Layout.EMPTY);
        TimerService restored = new TimerService(store, index, 100);
        restored.resetKeyIndex();
        assertThat(perKeyEntries(index)).isZero();

        assertThat(restored.list(key("a"))).containsExactly(10L, 30L);
        assertThat(restored.list(key("b"))).isEmpty();
        assertThat(restored.list(key("z"))).isEmpty();
    }

    private static int perKeyEntries(KeyValueStore<Bytes, byte[]> index) {
        int n = 0;
        try (var it = index.all()) {
            while (it.hasNext()) {
                if (it.next().key.get()[0] == Layout.TIMER_BY_KEY) {
                    n++;
                }
            }
        }
        return n;
    }
}

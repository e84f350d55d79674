package dev.rtmstreams.processor.internals;

import static dev.rtmstreams.processor.internals.TestStores.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class TtlCleanerTest {

    private final KeyValueStore<Bytes, byte[]> store = TestStores.operatorStore("ttl");

    private byte[] index(String state, String k, long expiry) {
        byte[] primary = Layout.concat(Layout.statePrefix(state), Layout.keySuffix(key(k)));
        store.put(Bytes.wrap(Layout.ttlKey(expiry, primary)), Layout.EMPTY);
        return primary;
    }

    @Test
    void shouldHandExpiredIndexEntriesToTheirVariableInBoundedPassesAndDropTheEntries() {
        List<String> asked = new ArrayList<>();
        StateVariable v = (primary, now) -> {
            asked.add(Layout.stateNameOf(primary, 0) + "@" + now);
            return 2;
        };
        index("v", "a", 10);
        index("v", "b", 20);
        index("gone", "c", 15); // a variable no longer declared: entry dropped, nothing asked
        index("v", "d", 100);
        TtlCleaner cleaner = new TtlCleaner(new KeyContext(store), 2);
        Map<String, StateVariable> vars = Map.of("v", v);
        assertThat(cleaner.cleanup(50, vars)).isEqualTo(2); // first pass: a (10) and gone (15)
        assertThat(cleaner.cleanup(50, vars)).isEqualTo(2); // b (20)
        assertThat(cleaner.cleanup(50, vars)).isZero(); // d expires at 100
        assertThat(asked).containsExactly("v@50", "v@50");
        assertThat(cleaner.cleanup(100, vars)).isEqualTo(2);
        assertThat(store.approximateNumEntries()).isZero();
    }

    @Test
    void shouldScanFromWhereTheLastPassEndedYetFindEntriesIndexedBelowIt() {
        KeyContext keys = new KeyContext(store);
        TtlCleaner cleaner = new TtlCleaner(keys, 100);
        List<String> asked = new ArrayList<>();
        StateVariable v = (primary, now) -> {
            asked.add(Layout.stateNameOf(primary, 0));
            return 1;
        };
        keys.indexTtl(10, Layout.concat(Layout.statePrefix("v"), Layout.keySuffix(key("a"))));
        keys.indexTtl(70, Layout.concat(Layout.statePrefix("v"), Layout.keySuffix(key("b"))));
        assertThat(cleaner.cleanup(50, Map.of("v", v))).isEqualTo(1); // a; b stays
        assertThat(keys.ttl.lowerBound()).isEqualTo(51);
        // an entry expiring before the scan start (e.g. the wall clock stepped back): still found
        keys.indexTtl(30, Layout.concat(Layout.statePrefix("v"), Layout.keySuffix(key("c"))));
        assertThat(cleaner.cleanup(60, Map.of("v", v))).isEqualTo(1);
        assertThat(cleaner.cleanup(80, Map.of("v", v))).isEqualTo(1);
        assertThat(asked).hasSize(3);
    }
}

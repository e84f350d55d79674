package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutputMatcherTest {

    private static Expected expected(String id, String fingerprint, long seq) {
        return new Expected(OutputKind.ATTRIBUTED_CLICK, "k-" + id, id, fingerprint, seq);
    }

    private static Observed observed(String id, String key, String fingerprint) {
        return new Observed(OutputKind.ATTRIBUTED_CLICK, key, id, fingerprint, 0);
    }

    @Test
    void shouldClassifyMatchedDuplicateUnexpectedMismatchedAndMissingOutputs() {
        OutputMatcher m = new OutputMatcher(List.of(
                expected("a", "fa", 1), expected("b", "fb", 2), expected("c", "fc", 3), expected("d", "fd", 4)));
        assertThat(m.accept(observed("a", "k-a", "fa")))
                .isNotNull()
                .extracting(Expected::completingSeq)
                .isEqualTo(1L);
        assertThat(m.accept(observed("a", "k-a", "fa"))).isNull(); // duplicate
        assertThat(m.accept(observed("x", "k-x", "fx"))).isNull(); // unexpected
        assertThat(m.accept(observed("b", "k-b", "wrong"))).isNull(); // wrong content
        assertThat(m.accept(observed("c", "wrong-key", "fc"))).isNull(); // wrong key
        assertThat(m.accept(observed("d", "k-d", "fd"))).isNotNull();
        assertThat(m.expected()).isEqualTo(4);
        assertThat(m.observed()).isEqualTo(6);
        assertThat(m.matched()).isEqualTo(2);
        assertThat(m.duplicates()).isEqualTo(1);
        assertThat(m.unexpected()).isEqualTo(3);
        assertThat(m.mismatched()).isEqualTo(2);
        assertThat(m.missing()).isEqualTo(2);
        assertThat(m.missingSamples(10)).hasSize(2);
    }

    @Test
    void shouldMatchEachCopyWhenAnOutputIsExpectedSeveralTimes() {
        Expected first = new Expected(OutputKind.ECHO, "k", "c1", "f", 10);
        Expected second = new Expected(OutputKind.ECHO, "k", "c1", "f", 20);
        OutputMatcher m = new OutputMatcher(List.of(first, second));
        Observed o = new Observed(OutputKind.ECHO, "k", "c1", "f", 0);
        assertThat(m.accept(o)).isSameAs(first);
        assertThat(m.accept(o)).isSameAs(second);
        assertThat(m.accept(o)).isNull();
        assertThat(m.duplicates()).isEqualTo(1);
        assertThat(m.missing()).isZero();
    }

    @Test
    void shouldCountExpectedMatchedAndDuplicatedOutputsPerKindWhenKindsAreMixed() {
        Expected click = expected("a", "fa", 1);
        Expected log = new Expected(OutputKind.LOG_RECORD, "t1", "t1|ok|5", "fl", 2);
        Expected otherLog = new Expected(OutputKind.LOG_RECORD, "t2", "t2|ok|6", "fl2", 3);
        OutputMatcher m = new OutputMatcher(List.of(click, log, otherLog));
        m.accept(observed("a", "k-a", "fa"));
        m.accept(observed("a", "k-a", "fa")); // duplicate click
        m.accept(new Observed(OutputKind.LOG_RECORD, "t1", "t1|ok|5", "fl", 0));
        m.accept(new Observed(OutputKind.LOG_RECORD, "t9", "t9|ok|5", "fl", 0)); // unexpected: in no kind's figures

        assertThat(m.counts(OutputKind.ATTRIBUTED_CLICK)).isEqualTo(new Matcher.KindCounts(1, 1, 1));
        assertThat(m.counts(OutputKind.LOG_RECORD)).isEqualTo(new Matcher.KindCounts(2, 1, 0));
        assertThat(m.counts(OutputKind.ECHO)).isEqualTo(new Matcher.KindCounts(0, 0, 0));
    }
}

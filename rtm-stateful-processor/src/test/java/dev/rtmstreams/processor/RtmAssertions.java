package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on rtm-streams' coded errors, for the tests of this module. */
public final class RtmAssertions {

    private RtmAssertions() {}

    /**
     * Asserts that {@code call} fails with an {@link RtmException} somewhere in its cause chain (Kafka Streams wraps
     * processor errors), with {@code code} and the given parameters ({@code name, value, name, value, ...}).
     */
    public static void assertCode(ThrowingCallable call, String code, String... params) {
        assertCodeAnd(call, e -> {}, code, params);
    }

    /**
     * Asserts {@link #assertCode} and that the error names operator {@code operator} in its
     * {@link RtmException#context()}. Calls {@code call} once.
     */
    public static void assertOperatorCode(ThrowingCallable call, String operator, String code, String... params) {
        assertCodeAnd(call, e -> assertThat(e.context()).containsEntry("operator", operator), code, params);
    }

    private static void assertCodeAnd(
            ThrowingCallable call, Consumer<RtmException> more, String code, String... params) {
        assertThatThrownBy(call).satisfies(t -> {
            Throwable c = t;
            while (c != null && !(c instanceof RtmException)) {
                c = c.getCause();
            }
            assertThat(c).as("an RtmException in the cause chain of %s", t).isInstanceOf(RtmException.class);
            RtmException e = (RtmException) c;
            assertThat(e.errorCode()).isEqualTo(code);
            for (int i = 0; i < params.length; i += 2) {
                assertThat(e.parameters()).containsEntry(params[i], params[i + 1]);
            }
            more.accept(e);
        });
    }
}

package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.StateReader;
import java.util.Collection;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The state readers' JSON values: a minimal writer (no JSON library in these modules), shared by
 * {@link StateReader#toJson} and rtm-join's join state reader so that both print values alike.
 */
@InterfaceStability.Unstable
public final class JsonText {

    private JsonText() {}

    /**
     * Appends {@code v} as a JSON value: {@code null}; numbers and booleans as they are; a
     * {@link StateReader.Base64Value} as {@code {"base64":"..."}}; a collection as an array of its elements; anything
     * else as the JSON string of {@code String.valueOf(v)}.
     *
     * @param b where to append; not null
     * @param v the value; may be null
     */
    public static void value(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof StateReader.Base64Value bv) {
            b.append("{\"base64\":");
            string(b, bv.base64());
            b.append('}');
        } else if (v instanceof Collection<?> c) {
            b.append('[');
            boolean first = true;
            for (Object o : c) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                value(b, o);
            }
            b.append(']');
        } else {
            string(b, String.valueOf(v));
        }
    }

    /**
     * Appends {@code s} as a JSON string, quoted and escaped.
     *
     * @param b where to append; not null
     * @param s the text; not null
     */
    public static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}

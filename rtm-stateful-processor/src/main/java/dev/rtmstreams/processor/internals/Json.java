package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.StateReader;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The state reader's JSON: a minimal writer (no JSON library in this module). */
public final class Json {

    private Json() {}

    /** @return one line: {@code {"key":..,"state":{"v":{"kind":"ValueState","values":[{"value":..,"expiresAtMs":..}]}},"timers":[..]}} */
    public static String keyState(StateReader.KeyState s) {
        StringBuilder b = new StringBuilder(128);
        b.append("{\"key\":");
        value(b, s.key());
        b.append(",\"state\":{");
        boolean first = true;
        for (Map.Entry<String, List<StateReader.StoredValue>> v : s.variables().entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            string(b, v.getKey());
            b.append(":{\"kind\":");
            string(b, s.kinds().get(v.getKey()));
            b.append(",\"values\":[");
            boolean firstValue = true;
            for (StateReader.StoredValue sv : v.getValue()) {
                if (!firstValue) {
                    b.append(',');
                }
                firstValue = false;
                b.append('{');
                if (sv.mapKey() != null) {
                    b.append("\"mapKey\":");
                    value(b, sv.mapKey());
                    b.append(',');
                }
                b.append("\"value\":");
                value(b, sv.value());
                b.append(",\"expiresAtMs\":");
                value(b, sv.expiresAtMs());
                b.append('}');
            }
            b.append("]}");
        }
        b.append("},\"timers\":");
        value(b, s.timers());
        return b.append('}').toString();
    }

    private static void value(StringBuilder b, Object v) {
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

    private static void string(StringBuilder b, String s) {
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

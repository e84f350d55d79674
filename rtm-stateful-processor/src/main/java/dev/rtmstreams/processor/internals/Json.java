package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.spi.JsonText;
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
        JsonText.value(b, v);
    }

    private static void string(StringBuilder b, String s) {
        JsonText.string(b, s);
    }
}

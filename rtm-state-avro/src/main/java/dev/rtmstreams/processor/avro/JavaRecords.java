package dev.rtmstreams.processor.avro;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

/**
 * Builds Java records from generic records (Avro reflect cannot set a record's final fields): each component from the
 * field of its name, with its canonical constructor.
 */
final class JavaRecords {

    private JavaRecords() {}

    /**
     * @param type a Java record class
     * @param value a generic record in the schema Avro reflect derives from {@code type}
     * @return the record
     * @throws IllegalStateException naming the class when its constructor fails
     */
    static Object build(Class<?> type, Object value) {
        if (!(value instanceof GenericRecord g)) {
            return value;
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            args[i] = convert(components[i].getGenericType(), g.get(components[i].getName()));
        }
        try {
            Constructor<?> c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            return c.newInstance(args);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot build " + type.getName() + " from the Avro record " + g, e);
        }
    }

    private static Object convert(Type type, Object v) {
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (v == null) {
            return null;
        }
        if (v instanceof CharSequence cs && (raw == String.class || raw == Object.class)) {
            return cs.toString();
        }
        if (raw.isRecord()) {
            return build(raw, v);
        }
        if (v instanceof Collection<?> c && Collection.class.isAssignableFrom(raw)) {
            Type element = type instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
            List<Object> out = new ArrayList<>(c.size());
            for (Object e : c) {
                out.add(convert(element, e));
            }
            return out;
        }
        if (v instanceof Map<?, ?> m && Map.class.isAssignableFrom(raw)) {
            Type value = type instanceof ParameterizedType p ? p.getActualTypeArguments()[1] : Object.class;
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k.toString(), convert(value, x)));
            return out;
        }
        return v;
    }
}

package dev.rtmstreams.processor.avro;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/** A class as avro-maven-plugin generates it: its schema in {@code SCHEMA$}, fields by position. */
public final class Counter extends SpecificRecordBase {
    public static final Schema SCHEMA$ = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Counter\",\"namespace\":\"dev.rtmstreams.processor.avro\","
                    + "\"fields\":[{\"name\":\"n\",\"type\":\"long\"}]}");
    private long n;

    public Counter() {}

    Counter(long n) {
        this.n = n;
    }

    @Override
    public Schema getSchema() {
        return SCHEMA$;
    }

    @Override
    public Object get(int field) {
        return n;
    }

    @Override
    public void put(int field, Object value) {
        n = (Long) value;
    }
}

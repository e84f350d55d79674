package dev.rtmstreams.spark;

import java.io.Serializable;
import java.sql.Timestamp;

/**
 * One input row as Spark sees it (a bean, for {@code Encoders.bean}): grouping key, value and event time. Our side gets
 * the same row as record key {@link #key}, value {@link #wire()} and record timestamp {@link #ts}.
 */
public class Event implements Serializable {
    private String key;
    private String value;
    private Timestamp ts;

    public Event() {}

    public Event(String key, String value, long eventTimeMs) {
        this.key = key;
        this.value = value;
        this.ts = new Timestamp(eventTimeMs);
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public String getValue() {
        return value;
    }

    public void setValue(String value) {
        this.value = value;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }

    /** @return the row as our side's record value: {@code value@eventTimeMs} */
    public String wire() {
        return value + "@" + ts.getTime();
    }

    /** @return the value part of a {@link #wire()} string */
    static String valueOf(String wire) {
        return wire.substring(0, wire.lastIndexOf('@'));
    }

    /** @return the event time of a {@link #wire()} string */
    static long eventTimeOf(String wire) {
        return Long.parseLong(wire.substring(wire.lastIndexOf('@') + 1));
    }

    @Override
    public String toString() {
        return key + ":" + wire();
    }
}

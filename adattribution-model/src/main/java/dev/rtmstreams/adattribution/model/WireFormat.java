package dev.rtmstreams.adattribution.model;

import java.util.Locale;

/** How Avro records are framed on the topics. */
public enum WireFormat {
    /**
     * Avro's single-object encoding: {@code C3 01}, the 8-byte CRC-64-AVRO fingerprint of the writer schema
     * (little-endian), the binary datum. No registry. The default.
     */
    SINGLE_OBJECT("single-object"),
    /**
     * Confluent's framing: magic byte {@code 00}, the 4-byte big-endian schema id of a Schema Registry, the binary
     * datum. Needs a registry.
     */
    CONFLUENT("confluent");

    private final String configValue;

    WireFormat(String configValue) {
        this.configValue = configValue;
    }

    /** @return the value as written in options, {@code single-object} or {@code confluent} */
    public String configValue() {
        return configValue;
    }

    /**
     * Parses an option value.
     *
     * @param value {@code single-object} or {@code confluent} (case-insensitive, {@code _} for {@code -})
     * @return the format
     * @throws IllegalArgumentException naming the value when it is neither
     */
    public static WireFormat parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (WireFormat f : values()) {
            if (f.configValue.equals(v)) {
                return f;
            }
        }
        throw new IllegalArgumentException("wire-format must be single-object or confluent: '" + value + "'");
    }
}

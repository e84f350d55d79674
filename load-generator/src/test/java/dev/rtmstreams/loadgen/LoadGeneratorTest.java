package dev.rtmstreams.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {

    private final String before = System.getProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES);
        } else {
            System.setProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES, before);
        }
    }

    @Test
    void shouldTrustTheProjectsAvroPackagesUnlessTheUserChoseOthers() {
        System.clearProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES);
        LoadGenerator.trustAvroPackages();
        assertThat(System.getProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES)).isEqualTo("dev.rtmstreams");

        System.setProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES, "com.example");
        LoadGenerator.trustAvroPackages();
        assertThat(System.getProperty(LoadGenerator.AVRO_SERIALIZABLE_PACKAGES)).isEqualTo("com.example");
    }
}

package dev.rtmstreams.adattribution.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.testkit.SchemaRegistryStandIn;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The REST client against {@link SchemaRegistryStandIn}, a stand-in for a Schema Registry (not a real one). */
class SchemaRegistryClientTest {

    private final SchemaRegistryStandIn registry = SchemaRegistryStandIn.start().basicAuth("rtm", "s3cret");

    @AfterEach
    void stop() {
        registry.close();
    }

    private SchemaRegistryClient client() {
        return SchemaRegistryClient.builder(registry.url())
                .basicAuth("rtm", "s3cret")
                .build();
    }

    @Test
    void shouldGiveSameIdWhenRegisteringIdenticalSchemaTwice() {
        int first = client().register("ad-clicks-value", Click.getClassSchema());
        int second = client().register("ad-clicks-value", Click.getClassSchema());

        assertThat(second).isEqualTo(first);
        assertThat(client().schemaById(first)).isEqualTo(Click.getClassSchema());
        assertThat(client().latest("ad-clicks-value"))
                .isEqualTo(new SchemaRegistryClient.Registered("ad-clicks-value", first, 1, Click.getClassSchema()));
    }

    @Test
    void shouldAskRegistryOnceWhenSchemaByIdIsCached() {
        int id = registry.register("ad-clicks-value", Click.getClassSchema());
        SchemaRegistryClient client = client();

        for (int i = 0; i < 10; i++) {
            client.schemaById(id);
        }

        assertThat(registry.requests("GET /schemas/ids/" + id)).isEqualTo(1);
    }

    @Test
    void shouldAskRegistryOncePerSchemaWhenManyThreadsMissTogether() throws Exception {
        int id = registry.register("ad-impressions-value", Impression.getClassSchema());
        SchemaRegistryClient client = client();
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> ids = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                ids.add(pool.submit(() -> {
                    start.await();
                    client.schemaById(id);
                    return client.register("ad-clicks-value", Click.getClassSchema());
                }));
            }
            start.countDown();
            for (Future<Integer> f : ids) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(registry.requests("GET /schemas/ids/" + id)).isEqualTo(1);
        assertThat(registry.requests("POST /subjects/ad-clicks-value/versions")).isEqualTo(1);
    }

    @Test
    void shouldRefuseIncompatibleSchemaWithRegistryErrorCode() {
        client().register("ad-clicks-value", AvroSerdeTest.clickWithoutUser());

        assertThat(client().isCompatible("ad-clicks-value", Click.getClassSchema()))
                .isFalse();
        assertThatThrownBy(() -> client().register("ad-clicks-value", Click.getClassSchema()))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.errorCode()).isEqualTo(409);
                });
        assertThat(client().isCompatible("ad-clicks-value", AvroSerdeTest.clickWithoutUser()))
                .isTrue();
    }

    @Test
    void shouldReportNotFoundWhenIdOrSubjectIsUnknown() {
        assertThatThrownBy(() -> client().schemaById(99)).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.isNotFound()).isTrue();
            assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
        });
        assertThatThrownBy(() -> client().latest("nope-value"))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND));
    }

    @Test
    void shouldFailWith401WhenCredentialsAreMissingOrWrong() {
        SchemaRegistryClient anonymous =
                SchemaRegistryClient.builder(registry.url()).build();
        SchemaRegistryClient wrong = SchemaRegistryClient.builder(registry.url())
                .basicAuth("rtm", "nope")
                .build();

        assertThatThrownBy(() -> anonymous.register("s-value", Impression.getClassSchema()))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> wrong.schemaById(1))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.status()).isEqualTo(401));
    }

    @Test
    void shouldNeverPrintThePassword() {
        assertThat(client().toString()).contains("rtm").doesNotContain("s3cret");
    }

    @Test
    void shouldRejectBadUrlNamingIt() {
        assertThatThrownBy(() -> SchemaRegistryClient.builder("ftp://registry").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ftp://registry'");
        assertThatThrownBy(() -> SchemaRegistryClient.builder("registry:8081").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'registry:8081'");
        assertThatThrownBy(() -> SchemaRegistryClient.builder("http://u:pw@registry:8081")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("pw");
    }

    @Test
    void shouldReportUnreachableRegistryWithStatusMinusOne() {
        String url = registry.url();
        registry.close();

        assertThatThrownBy(() -> SchemaRegistryClient.builder(url).build().schemaById(1))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.status()).isEqualTo(-1));
    }
}

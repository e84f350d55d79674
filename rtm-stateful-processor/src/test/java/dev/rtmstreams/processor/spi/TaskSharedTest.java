package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskSharedTest {

    @TempDir
    Path dir;

    private static MockProcessorContext<Object, Object> context(TaskId task, File stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "task-shared");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        return new MockProcessorContext<>(p, task, stateDir);
    }

    @Test
    void shouldHandOneObjectToEveryProcessorOfATaskWhenAcquiredTwice() {
        TaskShared<List<String>> shared = new TaskShared<>(v -> {});
        MockProcessorContext<Object, Object> ctx = context(new TaskId(0, 0), dir.toFile());
        AtomicInteger created = new AtomicInteger();

        List<String> first = shared.acquire(ctx, () -> {
            created.incrementAndGet();
            return new ArrayList<>();
        });
        List<String> second = shared.acquire(ctx, () -> {
            created.incrementAndGet();
            return new ArrayList<>();
        });

        assertThat(second).isSameAs(first);
        assertThat(created).hasValue(1);
        assertThat(shared.size()).isEqualTo(1);
    }

    @Test
    void shouldKeepTasksAndStateDirectoriesApartWhenTheyDiffer() {
        TaskShared<Object> shared = new TaskShared<>(v -> {});
        Object a = shared.acquire(context(new TaskId(0, 0), dir.resolve("a").toFile()), Object::new);
        Object otherTask =
                shared.acquire(context(new TaskId(0, 1), dir.resolve("a").toFile()), Object::new);
        Object otherInstance =
                shared.acquire(context(new TaskId(0, 0), dir.resolve("b").toFile()), Object::new);

        assertThat(otherTask).isNotSameAs(a);
        assertThat(otherInstance).isNotSameAs(a).isNotSameAs(otherTask);
        assertThat(shared.size()).isEqualTo(3);
    }

    @Test
    void shouldDropAndCloseTheObjectOnlyWhenTheLastProcessorReleasesIt() {
        List<Object> closed = new ArrayList<>();
        TaskShared<Object> shared = new TaskShared<>(closed::add);
        MockProcessorContext<Object, Object> ctx = context(new TaskId(1, 0), dir.toFile());
        Object first = shared.acquire(ctx, Object::new);
        shared.acquire(ctx, Object::new);

        shared.release(ctx);
        assertThat(closed).isEmpty();
        shared.release(ctx);
        assertThat(closed).containsExactly(first);
        assertThat(shared.size()).isZero();

        // the next incarnation of the task (e.g. a recycled standby made active again) starts afresh
        Object next = shared.acquire(ctx, Object::new);
        assertThat(next).isNotSameAs(first);
        shared.release(ctx);
        shared.release(ctx); // nothing held any more: no second close
        assertThat(closed).containsExactly(first, next);
    }

    @Test
    void shouldLeaveNothingBehindWhenCreateFails() {
        TaskShared<Object> shared = new TaskShared<>(v -> {});
        MockProcessorContext<Object, Object> ctx = context(new TaskId(0, 0), null);

        assertThatThrownBy(() -> shared.acquire(ctx, () -> {
                    throw new IllegalStateException("init failed");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("init failed");
        assertThat(shared.size()).isZero();
        assertThatThrownBy(() -> shared.acquire(ctx, () -> null)).isInstanceOf(NullPointerException.class);
        assertThat(shared.size()).isZero();

        Object retried = shared.acquire(ctx, Object::new);
        assertThat(retried).isNotNull();
        assertThat(shared.size()).isEqualTo(1);
    }
}

package dev.rtmstreams.adattribution.ops;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Java heap figures for {@code /metrics}: the heap in use now, right after the latest collection (young ones included,
 * so the live set plus what old regions still hold) and committed.
 */
public final class JvmHeap {

    private static final AtomicLong AFTER_LAST_GC = new AtomicLong(-1);
    private static final Set<String> HEAP_POOLS = new HashSet<>();

    static {
        ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .forEach(pool -> HEAP_POOLS.add(pool.getName()));
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(
                        (notification, handback) -> {
                            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                                    notification.getType())) {
                                Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo.from(
                                                (CompositeData) notification.getUserData())
                                        .getGcInfo()
                                        .getMemoryUsageAfterGc();
                                AFTER_LAST_GC.set(heapUsed(after));
                            }
                        },
                        null,
                        null);
            }
        }
    }

    private JvmHeap() {}

    static long heapUsed(Map<String, MemoryUsage> usageByPool) {
        long sum = 0;
        for (Map.Entry<String, MemoryUsage> e : usageByPool.entrySet()) {
            if (HEAP_POOLS.contains(e.getKey())) {
                sum += e.getValue().getUsed();
            }
        }
        return sum;
    }

    /** @return heap bytes in use right after the latest garbage collection, or -1 before the first one */
    public static long afterLastGcBytes() {
        return AFTER_LAST_GC.get();
    }

    /** @return heap bytes in use now, live or not yet collected */
    public static long usedBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** @return heap bytes the JVM has committed (taken from the operating system) */
    public static long committedBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    }
}

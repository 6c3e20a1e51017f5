package dev.ratchet.server.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What the JVM did between two snapshots: bytes its threads allocated and the garbage collections
 * it ran. Allocation drives how often the young generation is collected, and each collection stops
 * every event loop, which is what a turn's tail latency is made of.
 */
record JvmCounters(long allocatedBytes, long collections, long collectionMillis) {

  static JvmCounters now() {
    long allocated = 0;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (threads instanceof com.sun.management.ThreadMXBean) {
      com.sun.management.ThreadMXBean sun = (com.sun.management.ThreadMXBean) threads;
      // threads that end between two snapshots drop out of the sum; the event loops, which do the
      // work measured here, live for the whole phase
      for (long bytes : sun.getThreadAllocatedBytes(threads.getAllThreadIds())) {
        allocated += Math.max(0, bytes);
      }
    }
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new JvmCounters(allocated, count, millis);
  }

  /** CPU the whole JVM has used so far, in nanoseconds; 0 where the JVM does not say. */
  static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0;
  }

  JvmCounters since(JvmCounters earlier) {
    return new JvmCounters(allocatedBytes - earlier.allocatedBytes, collections - earlier.collections,
        collectionMillis - earlier.collectionMillis);
  }
}

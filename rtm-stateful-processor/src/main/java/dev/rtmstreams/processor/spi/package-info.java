/**
 * The pieces rtm-streams' operators share, published for operators built on this module (its own
 * {@code TransformWithState}, rtm-join's interval join and deduplication, or a user's operator), as Kafka Streams
 * separates {@code processor.api} from its {@code internals}. Every type here is
 * {@code @InterfaceStability.Unstable}: public so that rtm-join can build on it, not part of the API users call, and
 * free to change in any release (the API compatibility check skips it). The {@code internals} packages (the
 * operators' and this package's implementation, {@code spi.internals}) are not API at all.
 *
 * <ul>
 *   <li>{@link dev.rtmstreams.processor.spi.OperatorStores}: byte-keyed operator stores, their unmetered read view
 *       and, where a restore re-derives them, writes that skip the changelog;
 *   <li>{@link dev.rtmstreams.processor.spi.ConfigValues}: one parser of numeric settings;
 *   <li>{@link dev.rtmstreams.processor.spi.Watermarks}: Spark's late rule and the never-regress rule;
 *   <li>{@link dev.rtmstreams.processor.spi.InputWatermarks} and
 *       {@link dev.rtmstreams.processor.spi.PersistedWatermarks}: an operator task's watermark over its inputs
 *       (advance, idleness) and when it is persisted (each move, deferred to before the commit, or recovered from
 *       other state), each operator writing its own layout;
 *   <li>{@link dev.rtmstreams.processor.spi.OperatorSensors}: per-task sensors, with the late and future record
 *       metric names every event-time operator uses;
 *   <li>{@link dev.rtmstreams.processor.spi.ByteLayout} and {@link dev.rtmstreams.processor.spi.HeadersLayout}: the
 *       big-endian primitives of every store layout, and stored record headers;
 *   <li>{@link dev.rtmstreams.processor.spi.StoreWriteBatch}: batched bulk writes, e.g. to rebuild a local index;
 *   <li>{@link dev.rtmstreams.processor.spi.UnloggedStore} and {@link dev.rtmstreams.processor.spi.UnloggedStoreBuilder}:
 *       a custom per-task store that is neither cached nor changelogged, and its builder;
 *   <li>{@link dev.rtmstreams.processor.spi.TaskShared}: one object per task shared by an operator's processors
 *       (transformWithState's runtime, the interval join's task state), dropped when the last of them closes;
 *   <li>{@link dev.rtmstreams.processor.spi.TimeQueue} and {@link dev.rtmstreams.processor.spi.TimeSection}: the
 *       time-ordered queue operators evict through (in a store or on the heap; the interval join's time index) and
 *       the one bounded scan of a time-ordered store section from a tracked lower bound (that queue in a store,
 *       transformWithState's timers and TTL index);
 *   <li>{@link dev.rtmstreams.processor.spi.StoreCopies} and {@link dev.rtmstreams.processor.spi.JsonText}: read-only
 *       store copies (a RocksDB directory, replayed entries) and the JSON values of the state readers.
 * </ul>
 *
 * <p>Each operator keeps its own policy on top of these: how it marks "no watermark yet", how it derives a watermark
 * from its inputs, when an input is idle, and its stores' key layout.
 */
package dev.rtmstreams.processor.spi;

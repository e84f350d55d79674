package dev.rtmstreams.processor;

import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A list of values per grouping key, as in Spark's {@code ListState}. With TTL every element has its own expiry,
 * set when it is appended; {@link #put} refreshes all. Expired elements are never returned.
 *
 * @param <T> element type; elements are never null
 */
@InterfaceStability.Stable
public interface ListState<T> {

    /** @return true when at least one non-expired element exists for the current key */
    boolean exists();

    /** @return the non-expired elements in insertion order; empty (never null) when absent */
    Iterator<T> get();

    /**
     * Replaces the whole list.
     *
     * @throws RtmException with code {@code ILLEGAL_STATE_STORE_VALUE.NULL_VALUE} when {@code newState} is null or holds a null,
     *     {@code ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE} when it is empty
     */
    void put(List<T> newState);

    /**
     * Appends one element.
     *
     * @throws RtmException with code {@code ILLEGAL_STATE_STORE_VALUE.NULL_VALUE} when {@code newState} is null
     */
    void appendValue(T newState);

    /**
     * Appends several elements.
     *
     * @throws RtmException with code {@code ILLEGAL_STATE_STORE_VALUE.NULL_VALUE} when {@code newState} is null or holds a null,
     *     {@code ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE} when it is empty
     */
    void appendList(List<T> newState);

    /** Removes the whole list for the current key. */
    void clear();
}

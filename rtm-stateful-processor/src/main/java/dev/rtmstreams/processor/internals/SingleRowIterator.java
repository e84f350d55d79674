package dev.rtmstreams.processor.internals;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** Single-row iterator without a list allocation. */
final class SingleRowIterator<T> implements Iterator<T> {
    private T row;
    private boolean consumed;

    SingleRowIterator(T row) {
        this.row = row;
    }

    @Override
    public boolean hasNext() {
        return !consumed;
    }

    @Override
    public T next() {
        if (consumed) {
            throw new NoSuchElementException();
        }
        consumed = true;
        T r = row;
        row = null;
        return r;
    }
}

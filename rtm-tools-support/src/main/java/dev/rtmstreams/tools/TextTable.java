package dev.rtmstreams.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A console table of fixed-width columns separated by one space: the one table printer of the tools (the load
 * generator's comparison, the examples runner's and the demo's latency tables). A cell wider than its column widens
 * that row only, as {@code printf} widths do.
 *
 * <pre>{@code
 * TextTable t = new TextTable(TextTable.Column.left("mode", 12), TextTable.Column.decimal("p99 ms", 8, 1));
 * t.row("real-time", summary.p99());
 * t.print(System.out);
 * }</pre>
 *
 * <p>Cells: {@code null} prints as {@code -}; a number in a {@link Column#decimal decimal} column with that many
 * decimals (NaN as {@code -}); anything else as {@link String#valueOf(Object)}. Not thread-safe.
 */
public final class TextTable {

    /**
     * One column.
     *
     * @param header its header; not null
     * @param width its minimum width in characters, at least 1
     * @param leftAligned whether cells are padded on the right
     * @param decimals decimals of numbers in it, or -1 to print numbers as they are
     */
    public record Column(String header, int width, boolean leftAligned, int decimals) {

        /** Validates the column. */
        public Column {
            Objects.requireNonNull(header, "header");
            if (width < 1) {
                throw new IllegalArgumentException("column width must be at least 1: " + width + " (" + header + ")");
            }
            if (decimals < -1) {
                throw new IllegalArgumentException(
                        "column decimals must be -1 (as is) or more: " + decimals + " (" + header + ")");
            }
        }

        /**
         * @param header the header
         * @param width the minimum width
         * @return a left-aligned column printing its cells as they are
         */
        public static Column left(String header, int width) {
            return new Column(header, width, true, -1);
        }

        /**
         * @param header the header
         * @param width the minimum width
         * @return a right-aligned column printing its cells as they are (counts, preformatted text)
         */
        public static Column right(String header, int width) {
            return new Column(header, width, false, -1);
        }

        /**
         * @param header the header
         * @param width the minimum width
         * @param decimals decimals of the numbers, 0 or more
         * @return a right-aligned column printing numbers with {@code decimals} decimals
         */
        public static Column decimal(String header, int width, int decimals) {
            if (decimals < 0) {
                throw new IllegalArgumentException("decimals must be 0 or more: " + decimals + " (" + header + ")");
            }
            return new Column(header, width, false, decimals);
        }

        String format(Object cell) {
            String text;
            if (cell == null || (cell instanceof Double d && d.isNaN()) || (cell instanceof Float f && f.isNaN())) {
                text = "-";
            } else if (decimals >= 0 && cell instanceof Number n) {
                text = String.format(Locale.ROOT, "%." + decimals + "f", n.doubleValue());
            } else {
                text = String.valueOf(cell);
            }
            return pad(text);
        }

        String pad(String text) {
            if (text.length() >= width) {
                return text;
            }
            String padding = " ".repeat(width - text.length());
            return leftAligned ? text + padding : padding + text;
        }
    }

    private final List<Column> columns;
    private final List<String> lines = new ArrayList<>();

    /**
     * Creates a table with its header line.
     *
     * @param columns its columns, at least one
     */
    public TextTable(Column... columns) {
        this(List.of(columns));
    }

    /**
     * Creates a table with its header line.
     *
     * @param columns its columns, at least one; not null
     */
    public TextTable(List<Column> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.columns = List.copyOf(columns);
        List<String> header = new ArrayList<>();
        for (Column c : this.columns) {
            header.add(c.pad(c.header()));
        }
        lines.add(String.join(" ", header));
    }

    /**
     * Adds a row.
     *
     * @param cells one cell per column, in column order; null cells print as {@code -}
     * @return this table
     * @throws IllegalArgumentException when the number of cells is not the number of columns
     */
    public TextTable row(Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException("a row needs " + columns.size() + " cells, one per column, not "
                    + cells.length + ": " + Arrays.toString(cells));
        }
        List<String> line = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) {
            line.add(columns.get(i).format(cells[i]));
        }
        lines.add(String.join(" ", line));
        return this;
    }

    /** @return the header and rows, one line each, each ended by a line break */
    public String render() {
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            sb.append(line).append(System.lineSeparator());
        }
        return sb.toString();
    }

    /**
     * Prints the header and the rows.
     *
     * @param out where to print; not null
     */
    public void print(PrintStream out) {
        out.print(render());
    }
}

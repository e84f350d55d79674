package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.tools.TextTable.Column;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TextTableTest {

    private static final String NL = System.lineSeparator();

    @Test
    void shouldPadLikePrintfWidthsWhenPrintingHeaderAndRows() {
        TextTable t = new TextTable(Column.left("mode", 6), Column.right("n", 4), Column.decimal("p99", 7, 1));
        t.row("rt", 12L, 3.14159).row("micro", 7L, 250.0);
        assertThat(t.render())
                .isEqualTo(String.format(
                        Locale.ROOT,
                        "%-6s %4s %7s%n%-6s %4d %7.1f%n%-6s %4d %7.1f%n",
                        "mode",
                        "n",
                        "p99",
                        "rt",
                        12L,
                        3.14159,
                        "micro",
                        7L,
                        250.0));
    }

    @Test
    void shouldPrintDashForNullAndNaNAndWidenOnlyTheRowWhenACellIsTooWide() {
        String out = new TextTable(Column.left("m", 2), Column.decimal("x", 4, 0))
                .row(null, Double.NaN)
                .row("wide-cell", 12.6)
                .render();
        assertThat(out.split(NL)).containsExactly("m     x", "-     -", "wide-cell   13");
    }

    @Test
    void shouldPrintNumbersAsTheyAreInAColumnWithoutDecimals() {
        String out = new TextTable(Column.right("v", 5)).row(2.5).row(7).render();
        assertThat(out.split(NL)).containsExactly("    v", "  2.5", "    7");
    }

    @Test
    void shouldWriteTheRenderedTextWhenPrinting() {
        TextTable t = new TextTable(Column.left("a", 1)).row("b");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        t.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(t.render()).isEqualTo("a" + NL + "b" + NL);
    }

    @Test
    void shouldRejectARowWithTheWrongNumberOfCellsNamingIt() {
        TextTable t = new TextTable(Column.left("a", 1), Column.left("b", 1));
        assertThatThrownBy(() -> t.row("only"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 2 cells")
                .hasMessageContaining("[only]");
    }

    @Test
    void shouldRejectBadColumnsNamingTheValue() {
        assertThatThrownBy(() -> Column.left("a", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(": 0");
        assertThatThrownBy(() -> Column.decimal("a", 3, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(": -1");
        assertThatThrownBy(TextTable::new).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.cmd.FlagValues.BadValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FlagValuesTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"10250, 10250", "-999, -999", "+7, 7", "0, 0", "0x10, 16", "0X1f, 31", "010, 8", "0o17, 15",
            "0b101, 5", "0x_ff, 255", "2147483647, 2147483647", "-2147483648, -2147483648"})
    void int32AcceptsGoSyntax(String text, int value) throws BadValue {
        assertThat(FlagValues.int32(text)).isEqualTo(value);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "abc|strconv.ParseInt: parsing \"abc\": invalid syntax",
            "''|strconv.ParseInt: parsing \"\": invalid syntax",
            "1_000|strconv.ParseInt: parsing \"1_000\": invalid syntax",
            "1.5|strconv.ParseInt: parsing \"1.5\": invalid syntax",
            "08|strconv.ParseInt: parsing \"08\": invalid syntax",
            "2147483648|strconv.ParseInt: parsing \"2147483648\": value out of range",
            "-2147483649|strconv.ParseInt: parsing \"-2147483649\": value out of range"})
    void int32RejectsLikeGo(String text, String message) {
        assertThatThrownBy(() -> FlagValues.int32(text)).isInstanceOf(BadValue.class).hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource({"1, true", "t, true", "T, true", "TRUE, true", "true, true", "True, true",
            "0, false", "f, false", "F, false", "FALSE, false", "false, false", "False, false"})
    void boolAcceptsWhatStrconvAccepts(String text, boolean value) throws BadValue {
        assertThat(FlagValues.bool(text)).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "on", "tRUE", ""})
    void boolRejectsTheRest(String text) {
        assertThatThrownBy(() -> FlagValues.bool(text)).isInstanceOf(BadValue.class)
                .hasMessage("strconv.ParseBool: parsing \"" + text + "\": invalid syntax");
    }

    @Test
    void uint32IsDecimalAndUnsigned() throws BadValue {
        assertThat(FlagValues.uint32("4294967295")).isEqualTo(4294967295L);
        assertThatThrownBy(() -> FlagValues.uint32("-1")).hasMessage("strconv.ParseUint: parsing \"-1\": invalid syntax");
        assertThatThrownBy(() -> FlagValues.uint32("4294967296"))
                .hasMessage("strconv.ParseUint: parsing \"4294967296\": value out of range");
    }

    @Test
    void durationsUseGoSyntax() throws BadValue {
        assertThat(FlagValues.duration("1m30s")).hasSeconds(90);
        assertThatThrownBy(() -> FlagValues.duration("90")).hasMessage("time: missing unit in duration \"90\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "127.0.0.1", "255.255.255.255", "::", "::1", "fd00::1", "2001:db8::8:800:200c:417a",
            "::ffff:10.0.0.1"})
    void ipLiteralsAreAccepted(String ip) throws BadValue {
        assertThat(FlagValues.ip(ip)).isEqualTo(ip);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost", "256.0.0.1", "1.2.3", "1.2.3.4.5", ":::1", "fd00::g", "example.com", ".:"})
    void anythingElseIsNotAnIp(String text) {
        assertThatThrownBy(() -> FlagValues.ip(text)).isInstanceOf(BadValue.class)
                .hasMessage("\"" + text + "\" is not a valid IP address");
    }

    @Test
    void pairsAreTrimmedAndEmptyItemsSkipped() throws BadValue {
        assertThat(FlagValues.pairs(" memory.available < 1Gi ,, nodefs.available<10%", '<'))
                .containsExactly(Map.entry("memory.available", "1Gi"), Map.entry("nodefs.available", "10%"));
        assertThat(FlagValues.pairs("a=b=c", '=')).containsExactly(Map.entry("a", "b=c"));
        assertThatThrownBy(() -> FlagValues.pairs("memory.available=1Gi", '<'))
                .hasMessage("malformed pair, expect string<string");
        assertThatThrownBy(() -> FlagValues.pairs("a", '=')).hasMessage("malformed pair, expect string=string");
    }

    @Test
    void headerValuesAccumulateUnderTheirName() throws BadValue {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        FlagValues.headers("a:hello,b:again,c:world", headers);
        FlagValues.headers("b:beautiful,Authorization: Bearer x:y", headers);

        assertThat(headers).containsExactly(
                Map.entry("a", List.of("hello")),
                Map.entry("b", List.of("again", "beautiful")),
                Map.entry("c", List.of("world")),
                Map.entry("Authorization", List.of("Bearer x:y")));
        assertThatThrownBy(() -> FlagValues.headers("novalue", headers))
                .hasMessage("malformed pair, expect string:string");
    }

    @Test
    void csvSplitsOnCommas() {
        assertThat(FlagValues.csv("10.96.0.10,10.96.0.11")).containsExactly("10.96.0.10", "10.96.0.11");
        assertThat(FlagValues.csv("")).isEmpty();
    }
}

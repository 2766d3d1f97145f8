package io.jkubelet.core.eviction;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Quantities print as Go's {@code resource.Quantity} does, which is what the eviction messages show. */
class QuantitiesTest {

    @ParameterizedTest(name = "{0} bytes print {1}")
    @CsvSource({"0, 0", "1023, 1023", "1024, 1Ki", "104857600, 100Mi", "1610612736, 1536Mi", "1073741824, 1Gi",
            "1500000000, 1500000000", "52428800, 50Mi"})
    void bytesPrintInBinaryFormWhenTheyAreWholeMultiples(long bytes, String printed) {
        assertThat(Quantities.binary(bytes)).isEqualTo(printed);
    }

    @ParameterizedTest(name = "{0} printed {1}")
    @CsvSource({"0, 0", "999, 999", "5000, 5k", "1230, 1230", "1000000, 1M", "4194304, 4194304"})
    void countsPrintInDecimalForm(long count, String printed) {
        assertThat(Quantities.decimal(count)).isEqualTo(printed);
    }

    @ParameterizedTest(name = "{0} prints {1}")
    @CsvSource({"100Mi, 100Mi", "1024Mi, 1Gi", "1.5Gi, 1536Mi", "500M, 500M", "1000k, 1M", "1.5k, 1500", "1e3, 1e3",
            "512, 512", "0.5Ki, 512"})
    void aParsedQuantityPrintsCanonicallyInTheFormOfItsSuffix(String text, String printed) {
        assertThat(Quantities.parse(text).text()).isEqualTo(printed);
    }
}

package io.jkubelet.cmd.e2e;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Debian's {@code chromium} driven through its {@code chromium-driver}, headless, as the dashboard's browser tests use
 * it: the machine's own binaries (Selenium never looks for or downloads a browser), a window large enough for the
 * dashboard, and any TLS certificate accepted (the agent's is self-signed).
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    final ChromeDriver driver;

    HeadlessChromium() {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("the dashboard's browser tests need Debian's chromium and chromium-driver: "
                    + "apt-get install -y chromium chromium-driver (bin/test installs them)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1600", "--ignore-certificate-errors", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    /** Saves what the window shows as a PNG. */
    void screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        driver.quit();
    }
}

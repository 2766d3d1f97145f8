package io.jkubelet.cmd;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The kubelet's command line (upstream {@code NewKubeletCommand}, cobra and pflag), tokenized with picocli as pflag
 * tokenizes it: {@code --flag=value}, {@code --flag value}, booleans as {@code --flag} or {@code --flag=true|false},
 * a repeated flag's last value wins (list and map flags accumulate), and no positional arguments; unknown flags and
 * missing values refused with pflag's messages. {@code --help} and {@code --version} are answered here; everything
 * else goes to {@link KubeletOptions} as the {@link GivenFlags}, whose values are parsed there with Go's rules.
 * Stateless and thread-safe.
 */
public final class KubeletCommand {
    private static final int USAGE_WIDTH = 110;

    private KubeletCommand() {
    }

    /**
     * Parses the command line and builds the effective, validated configuration.
     *
     * @return {@link KubeletInvocation.Run} with the server to start, or
     *         {@link KubeletInvocation.PrintAndExit} for {@code --help} and {@code --version}
     * @throws FlagsException for every bad input, with a message naming the flag, file or field
     */
    public static KubeletInvocation parse(String[] args) throws FlagsException {
        GivenFlags given = tokenize(args);
        if (given.given(KubeletFlagSpecs.HELP) && given.parse(KubeletFlagSpecs.HELP, FlagValues::bool)) {
            return new KubeletInvocation.PrintAndExit(usage());
        }
        if (given.given(KubeletFlagSpecs.VERSION)) {
            if (given.last(KubeletFlagSpecs.VERSION).equals("raw")) {
                return new KubeletInvocation.PrintAndExit(KubeletVersion.rawVersion());
            }
            if (given.parse(KubeletFlagSpecs.VERSION, FlagValues::bool)) {
                return new KubeletInvocation.PrintAndExit(KubeletVersion.versionLine());
            }
        }
        return KubeletOptions.kubeletServer(given);
    }

    /** The {@code --help} text; each flag's default is the one the agent applies without {@code --config}. */
    public static String usage() {
        return usage(USAGE_WIDTH);
    }

    /** The {@code --help} text with its lines wrapped at {@code width} columns. */
    static String usage(int width) {
        CommandSpec spec = spec(KubeletFlagSpecs.forHelp(ConfigFlagDefaults.newKubeletConfiguration()));
        spec.usageMessage().width(width);
        return new CommandLine(spec).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static CommandSpec spec(List<FlagSpec> flags) {
        String name = KubeletFlagSpecs.NAME;
        CommandSpec spec = CommandSpec.create().name(name);
        spec.usageMessage()
                .headerHeading("")
                .customSynopsis(name + " [flags]")
                .header(name + " - the Kubernetes node agent on Docker or any CRI runtime, compatible with kubelet "
                        + KubeletVersion.compatVersion() + ".")
                .descriptionHeading("%n")
                .description("Runs the pods assigned to this node: from static pod files (--pod-manifest-path), "
                        + "a URL (--manifest-url) and, with --kubeconfig, the apiserver. Most settings can also "
                        + "be given in a KubeletConfiguration file (--config); flags override the file.")
                .optionListHeading("%nFlags:%n")
                .sortOptions(true)
                .width(USAGE_WIDTH);
        for (FlagSpec flag : flags) {
            String[] names = flag.shorthand() == null ? new String[] {flag.longName()}
                    : new String[] {"-" + flag.shorthand(), flag.longName()};
            OptionSpec.Builder option = OptionSpec.builder(names)
                    .type(List.class).auxiliaryTypes(String.class)
                    .paramLabel(flag.paramLabel())
                    // picocli formats descriptions: a literal '%' must be doubled. Deprecated flags stay in the help,
                    // marked as pflag marks them: upstream un-hides them ("silently deprecating ... is unkind").
                    .description(flag.usage().replace("%", "%%"));
            if (flag.isBoolean()) {
                option.arity("0..1").fallbackValue("true").paramLabel("true|false");
            } else if (flag == KubeletFlagSpecs.VERSION) {
                option.arity("0..1").fallbackValue("true").paramLabel("raw");
            } else {
                option.arity("1");
            }
            spec.addOption(option.build());
        }
        return spec;
    }

    /** The flags given, by name, each with its values in order. */
    private static GivenFlags tokenize(String[] args) throws FlagsException {
        List<FlagSpec> flags = KubeletFlagSpecs.all();
        CommandLine commandLine = new CommandLine(spec(flags));
        commandLine.setExpandAtFiles(false); // "@file" is an ordinary value for the kubelet
        commandLine.setAbbreviatedOptionsAllowed(false);
        commandLine.setUnmatchedArgumentsAllowed(false);
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setTrimQuotes(false);
        ParseResult parsed;
        try {
            parsed = commandLine.parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw unmatched(e.getUnmatched());
        } catch (CommandLine.MissingParameterException e) {
            ArgSpec missing = e.getMissing() == null || e.getMissing().isEmpty() ? e.getArgSpec() : e.getMissing().get(0);
            throw new FlagsException("flag needs an argument: " + flagName(missing, args));
        } catch (CommandLine.ParameterException e) {
            throw new FlagsException(e.getMessage(), e);
        }
        Map<String, List<String>> given = new LinkedHashMap<>();
        for (FlagSpec flag : flags) {
            if (parsed.hasMatchedOption(flag.longName())) {
                List<String> values = parsed.matchedOptionValue(flag.longName(), List.<String>of());
                given.put(flag.name(), values == null ? List.of() : values);
            }
        }
        return new GivenFlags(given);
    }

    private static FlagsException unmatched(List<String> unmatched) {
        String first = unmatched.isEmpty() ? "" : unmatched.get(0);
        if (first.startsWith("--") && first.length() > 2) {
            int eq = first.indexOf('=');
            return new FlagsException("unknown flag: " + (eq < 0 ? first : first.substring(0, eq)));
        }
        if (first.startsWith("-") && first.length() > 1) {
            return new FlagsException("unknown shorthand flag: '" + first.charAt(1) + "' in " + first);
        }
        return new FlagsException("unknown command " + FlagValues.quote(first) + " for \"" + KubeletFlagSpecs.NAME
                + "\"");
    }

    private static String flagName(ArgSpec spec, String[] args) {
        if (spec instanceof OptionSpec option) {
            String shortName = option.shortestName();
            for (String arg : args) {
                if (arg.equals(shortName) && !shortName.startsWith("--")) {
                    return "'" + shortName.substring(1) + "' in " + shortName;
                }
            }
            return option.longestName();
        }
        return String.valueOf(spec);
    }
}

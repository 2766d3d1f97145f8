package io.jkubelet.server.logs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The lines of one container log across its files ({@link RotatedLogFiles}), oldest first: from where the last
 * {@code tail} lines begin to the end of the live file, and on past the runtime's rotations for a follower. A file
 * rotated away is read to its end before the files that came after it, so no line the runtime kept is skipped.
 * Not thread-safe; closes the files it holds.
 */
final class LogLines implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LogLines.class);

    private final Path live;
    /** The file being read first, then the ones after it; the last is the live file as last seen. */
    private final Deque<RotatedLogFiles.LogFile> files;
    private LogLineReader reader;
    /** The live file was seen rotated and is being read to its end. */
    private boolean rotatedAway;

    private LogLines(Path live, Deque<RotatedLogFiles.LogFile> files) {
        this.live = live;
        this.files = files;
        this.reader = new LogLineReader(files.getFirst().channel());
    }

    /**
     * The lines of the log whose live file is {@code live} and whose files are {@code opened} ({@link
     * RotatedLogFiles#open}), from the first of its last {@code tail} lines counted across the files (upstream tails
     * the live file alone; Docker's own reader counts the rotated ones too); from its start for a negative
     * {@code tail}. Takes the files over, closing them on failure.
     *
     * @throws IOException when the files cannot be read
     */
    static LogLines fromTail(Path live, List<RotatedLogFiles.LogFile> opened, long tail) throws IOException {
        Deque<RotatedLogFiles.LogFile> files = new ArrayDeque<>(opened);
        try {
            skipToTail(files, tail);
        } catch (IOException | RuntimeException e) {
            RotatedLogFiles.closeAll(List.copyOf(files));
            throw e;
        }
        return new LogLines(live, files);
    }

    private static void skipToTail(Deque<RotatedLogFiles.LogFile> files, long tail) throws IOException {
        if (tail < 0) {
            return;
        }
        List<RotatedLogFiles.LogFile> newestFirst = new ArrayList<>(files);
        Collections.reverse(newestFirst);
        long need = tail;
        int keep = 0;
        long start = 0;
        for (RotatedLogFiles.LogFile f : newestFirst) {
            LogTailIndex.Tail t = LogTailIndex.tail(f.channel(), need);
            keep++;
            start = t.start();
            need -= t.lines();
            if (need == 0) {
                break;
            }
        }
        while (files.size() > keep) {
            RotatedLogFiles.closeAll(List.of(files.removeFirst()));
        }
        files.getFirst().channel().position(start);
    }

    /**
     * The next line with its newline; null at the end of the live file as it is now (its unfinished last line is
     * kept for {@link #takeUnfinished}). An older file's unended last line comes as a line of its own.
     */
    byte[] next() throws IOException {
        while (true) {
            byte[] line = reader.readLine();
            if (line != null || files.size() == 1) {
                return line;
            }
            byte[] unfinished = reader.takeUnfinished();
            nextFile();
            if (unfinished.length > 0) {
                log.debug("Incomplete last line in rotated log file of {}", live);
                return unfinished;
            }
        }
    }

    /** The live file's unfinished last line, taken away; empty when there is none. */
    byte[] takeUnfinished() {
        return reader.takeUnfinished();
    }

    /**
     * At the end of the live file: whether the runtime rotated it, so that there is more to read now. The first
     * time it says so, the rest of the rotated file is to be read (the runtime closed it before renaming it); the
     * next time, the files that came after it are queued. False when nothing changed, or the new files cannot be
     * opened yet.
     */
    boolean rotated() {
        if (!rotatedAway) {
            if (Objects.equals(files.getFirst().key(), RotatedLogFiles.key(live))) {
                return false;
            }
            rotatedAway = true;
            return true;
        }
        List<RotatedLogFiles.LogFile> newer;
        try {
            newer = RotatedLogFiles.openNewerThan(live, files.getFirst().key());
        } catch (IOException e) {
            log.debug("Cannot open the files after a rotation of {} yet: {}", live, e.toString());
            return false;
        }
        if (newer.isEmpty()) {
            return false;
        }
        files.addAll(newer);
        rotatedAway = false;
        nextFile();
        return true;
    }

    private void nextFile() {
        RotatedLogFiles.closeAll(List.of(files.removeFirst()));
        reader = new LogLineReader(files.getFirst().channel());
    }

    @Override
    public void close() {
        RotatedLogFiles.closeAll(List.copyOf(files));
    }
}

package dev.ratchet.host;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * Files and directories that only the account running Ratchet may read: the embedded Redis's data
 * directory ({@code rwx------}) and its secrets ({@code rw-------}), the retention archive and
 * exports. A file is created with its permissions (never widened first and narrowed after) and
 * appears whole under its name. On a file system without POSIX permissions these do what they can:
 * create, write, never fail for want of modes.
 */
public final class PrivateFiles {

  static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
  /** {@code rw-------}. */
  public static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

  private PrivateFiles() {
  }

  /** Whether this file system has POSIX permissions. */
  public static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  /**
   * Creates {@code dir} as {@code rwx------} (with its missing parents, the same), or narrows an
   * existing one to it; {@code what} names it in an error. Answers the permissions it had when it
   * had to narrow them ({@code rwxr-xr-x}), else empty.
   */
  public static Optional<String> ownerOnlyDirectory(Path dir, String what) throws IOException {
    if (!posix()) {
      Files.createDirectories(dir);
      return Optional.empty();
    }
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
      return Optional.empty();
    }
    return narrow(dir, OWNER_DIRECTORY, what);
  }

  /** Narrows an existing file to {@code rw-------}: the permissions it had when it had to, else empty. */
  public static Optional<String> ownerOnlyFile(Path file, String what) throws IOException {
    return posix() ? narrow(file, OWNER_FILE, what) : Optional.empty();
  }

  private static Optional<String> narrow(Path path, Set<PosixFilePermission> to, String what) throws IOException {
    Set<PosixFilePermission> had = Files.getPosixFilePermissions(path);
    if (had.equals(to)) {
      return Optional.empty();
    }
    try {
      Files.setPosixFilePermissions(path, to);
    } catch (IOException e) {
      throw new IOException(what + " " + path + " is " + PosixFilePermissions.toString(had)
          + " and could not be made " + PosixFilePermissions.toString(to) + " (" + e.getMessage() + ")", e);
    }
    return Optional.of(PosixFilePermissions.toString(had));
  }

  /**
   * A channel on {@code file} opened with {@code options}: created {@code rw-------} when it is new,
   * an existing one narrowed to it first.
   */
  public static FileChannel open(Path file, Set<? extends OpenOption> options)
      throws IOException {
    if (Files.exists(file)) {
      ownerOnlyFile(file, "the file");
    }
    return FileChannel.open(file, options, ownerOnly());
  }

  /** {@link #open} for writing, as a stream: created or truncated. */
  public static OutputStream newOutputStream(Path file) throws IOException {
    return Channels.newOutputStream(open(file, Set.of(StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)));
  }

  private static FileAttribute<?>[] ownerOnly() {
    return posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)} : new FileAttribute<?>[0];
  }

  /** Writes {@code content} to {@code file} as {@code rw-------}, replacing the file whole. */
  public static void write(Path file, String content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp", ownerOnly());
    try {
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The secret in {@code file}, made on first use: 32 random bytes in hex. An existing file that
   * other accounts could read is made {@code rw-------}.
   */
  public static String secret(Path file) throws IOException {
    if (!Files.exists(file)) {
      byte[] bytes = new byte[32];
      new SecureRandom().nextBytes(bytes);
      write(file, HexFormat.of().formatHex(bytes) + "\n");
    } else if (posix() && !Files.getPosixFilePermissions(file).equals(OWNER_FILE)) {
      Files.setPosixFilePermissions(file, OWNER_FILE);
    }
    String secret = Files.readString(file, StandardCharsets.UTF_8).trim();
    if (!secret.matches("[0-9a-fA-F]{32,}")) {
      throw new IOException(file + " does not hold a password in hex digits; remove it to have a new one made");
    }
    return secret;
  }
}

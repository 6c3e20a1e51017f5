package dev.ratchet.runtime.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * Files and directories that only the account running Ratchet may read: the embedded Redis's data
 * directory ({@code rwx------}) and its secrets ({@code rw-------}). A file is created with its
 * permissions (never widened first and narrowed after) and appears whole under its name.
 */
final class PrivateFiles {

  static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
  static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

  private PrivateFiles() {
  }

  static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  /**
   * Creates {@code dir} as {@code rwx------}, or takes an existing one's access away from other
   * accounts: the warning to show when it had to, else empty.
   */
  static Optional<String> secureDirectory(Path dir) throws IOException {
    if (!posix()) {
      Files.createDirectories(dir);
      return Optional.empty();
    }
    if (!Files.isDirectory(dir)) {
      Path parent = dir.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
      return Optional.empty();
    }
    Set<PosixFilePermission> had = Files.getPosixFilePermissions(dir);
    if (had.equals(OWNER_DIRECTORY)) {
      return Optional.empty();
    }
    try {
      Files.setPosixFilePermissions(dir, OWNER_DIRECTORY);
    } catch (IOException e) {
      throw new IOException("the data directory " + dir + " is " + PosixFilePermissions.toString(had)
          + " and could not be made rwx------ (" + e.getMessage() + ")", e);
    }
    return Optional.of("the data directory " + dir + " was " + PosixFilePermissions.toString(had)
        + ": made it rwx------, so that only this account reads the journal");
  }

  /** Writes {@code content} to {@code file} as {@code rw-------}, replacing the file whole. */
  static void write(Path file, String content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    FileAttribute<?>[] attrs = posix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)} : new FileAttribute<?>[0];
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp", attrs);
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
  static String secret(Path file) throws IOException {
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

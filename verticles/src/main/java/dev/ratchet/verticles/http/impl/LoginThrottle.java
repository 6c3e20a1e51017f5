package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.HttpOptions;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Failed log-ins per user name and client address pair, and per address, in this process's
 * memory. A pair's first {@code freeFailures} failures are free; each further one locks that name
 * out from that address for {@code lockoutMillis}, doubling up to {@code maxLockoutMillis}. An
 * address has a higher cap, {@code addressFreeFailures}, across every name, past which it is locked
 * for every name the same way. So guessing one user's password locks neither the other users of
 * the address (the admin included) nor that user elsewhere, while spraying names from one address
 * still ends. While locked, a log-in is refused before its password is checked, even a right one.
 * An attempt counts as failed from the moment it starts, so that parallel guesses cannot all slip
 * in before the first one is judged, and its lock starts again when it is judged failed, so that
 * a slow check does not shorten it; a success forgets the pair's and the address's failures.
 * <p>Memory stays bounded: pairs of configured users, pairs of other names and addresses live in
 * maps of at most {@link #MAX_TRACKED} entries each (least recently failed forgotten first), so
 * spraying unknown names cannot push a configured user's lock out, and an entry is forgotten once
 * it has been quiet for {@code maxLockoutMillis} after its lock ended.
 */
public final class LoginThrottle {

  static final int MAX_TRACKED = 10_000;

  private static final class Failures {
    int count;
    long lockedUntil;
    long lockMillis;
    long last;
  }

  private final int free;
  private final int addressFree;
  private final long base;
  private final long max;
  private final LongSupplier clock;
  private final java.util.Set<String> knownUsers;
  private final Map<String, Failures> users = lru();
  private final Map<String, Failures> otherNames = lru();
  private final Map<String, Failures> addresses = lru();

  public LoginThrottle(HttpOptions options) {
    this(options, System::currentTimeMillis);
  }

  LoginThrottle(HttpOptions options, LongSupplier clock) {
    this.free = options.loginFreeFailures();
    this.addressFree = options.loginAddressFreeFailures();
    this.base = options.loginLockoutMillis();
    this.max = options.loginMaxLockoutMillis();
    this.clock = clock;
    this.knownUsers = new java.util.HashSet<>();
    options.users().forEach(u -> knownUsers.add(u.name()));
  }

  private static Map<String, Failures> lru() {
    return new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
        return size() > MAX_TRACKED;
      }
    };
  }

  /**
   * Starts an attempt: 0 when it may go on (and it is counted as failed until {@link #succeeded}),
   * else the milliseconds until the name may try again from the address, or the address at all.
   */
  public synchronized long begin(String name, String address) {
    long now = clock.getAsLong();
    String pair = pair(name, address);
    long wait = Math.max(waitFor(pairs(name), pair, now), waitFor(addresses, address, now));
    if (wait > 0) {
      return wait;
    }
    fail(pairs(name), pair, free, now);
    fail(addresses, address, addressFree, now);
    return 0;
  }

  /**
   * Restarts the locks of an attempt judged failed from now: a password check slower than the
   * lock would otherwise let the next guess in as soon as the failure is answered.
   */
  public synchronized void failed(String name, String address) {
    long now = clock.getAsLong();
    relock(pairs(name).get(pair(name, address)), now);
    relock(addresses.get(address), now);
  }

  private static void relock(Failures f, long now) {
    if (f != null && f.lockMillis > 0) {
      f.lockedUntil = Math.max(f.lockedUntil, now + f.lockMillis);
    }
  }

  /** Forgets the failures of the name from the address, and the address's, after a success. */
  public synchronized void succeeded(String name, String address) {
    pairs(name).remove(pair(name, address));
    addresses.remove(address);
  }

  /** Failures counted for the name from the address so far: what a log line reports. */
  public synchronized int failures(String name, String address) {
    Failures f = pairs(name).get(pair(name, address));
    return f == null ? 0 : f.count;
  }

  /** Entries held: what the memory bound limits. */
  synchronized int tracked() {
    return users.size() + otherNames.size() + addresses.size();
  }

  private Map<String, Failures> pairs(String name) {
    return knownUsers.contains(name) ? users : otherNames;
  }

  private static String pair(String name, String address) {
    // NUL appears in neither a configured user name nor an address, so pairs cannot collide
    return (name == null ? "" : name) + '\0' + address;
  }

  private long waitFor(Map<String, Failures> map, String key, long now) {
    Failures f = map.get(key);
    if (f == null) {
      return 0;
    }
    if (f.lockedUntil <= now && now - Math.max(f.last, f.lockedUntil) > max) {
      map.remove(key);
      return 0;
    }
    return Math.max(0, f.lockedUntil - now);
  }

  private void fail(Map<String, Failures> map, String key, int free, long now) {
    Failures f = map.computeIfAbsent(key, k -> new Failures());
    f.count++;
    f.last = now;
    if (f.count > free) {
      long lock = base;
      for (int i = free + 1; i < f.count && lock < max; i++) {
        lock *= 2;
      }
      f.lockMillis = Math.min(max, lock);
      f.lockedUntil = now + f.lockMillis;
    }
  }
}

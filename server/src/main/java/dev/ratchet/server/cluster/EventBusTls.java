package dev.ratchet.server.cluster;

import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PfxOptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Mutual TLS on the clustered event bus ({@code cluster.tls}): each member presents the key and
 * certificate of {@code keyStore} and accepts only peers whose certificate {@code trustStore}
 * trusts, both ways, so a JVM without such a certificate can neither send to the members nor
 * receive from them. Both stores are PKCS#12 files. docs/CLUSTER.md, "Mutual TLS on the event bus".
 */
public record EventBusTls(String keyStore, String keyStorePassword, String trustStore, String trustStorePassword) {

  /** The settings of {@code cluster.tls}, or null when it names no key store (no TLS). */
  static EventBusTls from(JsonObject cluster) {
    JsonObject tls = cluster.getJsonObject("tls", new JsonObject());
    String keyStore = tls.getString("keyStore");
    if (keyStore == null || keyStore.isBlank()) {
      return null;
    }
    String trustStore = tls.getString("trustStore");
    if (trustStore == null || trustStore.isBlank()) {
      throw new IllegalArgumentException("cluster.tls.trustStore is required with cluster.tls.keyStore: the PKCS#12"
          + " file of the certificates (or their authority) that the other members and agents present");
    }
    for (String path : new String[] {keyStore, trustStore}) {
      if (!Files.isReadable(Path.of(path))) {
        throw new IllegalArgumentException("cluster.tls: cannot read " + path);
      }
    }
    return new EventBusTls(keyStore, tls.getString("keyStorePassword"), trustStore,
        tls.getString("trustStorePassword"));
  }

  /** {@code options} with TLS on, presenting this member's certificate and requiring the peer's. */
  public EventBusOptions apply(EventBusOptions options) {
    options.setSsl(true).setClientAuth(ClientAuth.REQUIRED)
        // PfxOptions, not the generic KeyStoreOptions: the event bus copies its options through JSON, which keeps these
        .setKeyCertOptions(new PfxOptions().setPath(keyStore).setPassword(keyStorePassword))
        .setTrustOptions(new PfxOptions().setPath(trustStore).setPassword(trustStorePassword));
    return options;
  }

  @Override
  public String toString() {
    // never the passwords
    return "mutual TLS (key store " + keyStore + ", trust store " + trustStore + ")";
  }
}

package dev.ratchet.connectors.provider;

/** A started authorization flow: the URL to send the user to, and the id to poll with {@code getAuthStatus}. */
public record Authorization(String url, String authId) {
}

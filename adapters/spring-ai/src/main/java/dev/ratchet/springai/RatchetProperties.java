package dev.ratchet.springai;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code ratchet.*} application properties: the agent whose tools the model uses and, for a Ratchet
 * reached over HTTP, its address and an API token of role {@code agent}. Without {@code ratchet.url}
 * the application provides a {@code RatchetTurns} bean itself (an embedded Ratchet).
 */
@ConfigurationProperties(prefix = "ratchet")
public class RatchetProperties {

  private String agent;
  private String url;
  private String token;

  public String getAgent() {
    return agent;
  }

  public void setAgent(String agent) {
    this.agent = agent;
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public String getToken() {
    return token;
  }

  public void setToken(String token) {
    this.token = token;
  }
}

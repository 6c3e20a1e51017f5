package dev.ratchet.connectors.provider;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AllowListTest {

  @Test
  void withoutEntriesEverythingIsAllowed() {
    assertThat(AllowList.everything().toolkitAllowed("github")).isTrue();
    assertThat(AllowList.everything().toolAllowed("github", "GITHUB_CREATE_ISSUE")).isTrue();
  }

  @Test
  void toolkitsMatchExactlyOrByTrailingWildcardIgnoringCase() {
    AllowList allow = AllowList.of(List.of("github", "google*"), null);
    assertThat(allow.toolkitAllowed("github")).isTrue();
    assertThat(allow.toolkitAllowed("GitHub")).isTrue();
    assertThat(allow.toolkitAllowed("googledrive")).isTrue();
    assertThat(allow.toolkitAllowed("google")).isTrue();
    assertThat(allow.toolkitAllowed("githubenterprise")).isFalse();
    assertThat(allow.toolkitAllowed("gmail")).isFalse();
    assertThat(allow.toolkitAllowed(null)).isFalse();
  }

  @Test
  void toolsMatchExactlyOrByPrefixWithinTheirToolkit() {
    AllowList allow = AllowList.of(List.of("gmail", "github"),
        Map.of("gmail", List.of("GMAIL_SEND_*", "GMAIL_FETCH_EMAILS")));
    assertThat(allow.toolAllowed("gmail", "GMAIL_SEND_EMAIL")).isTrue();
    assertThat(allow.toolAllowed("gmail", "GMAIL_SEND_DRAFT")).isTrue();
    assertThat(allow.toolAllowed("gmail", "GMAIL_FETCH_EMAILS")).isTrue();
    assertThat(allow.toolAllowed("gmail", "GMAIL_FETCH_EMAILS_FULL")).isFalse();
    assertThat(allow.toolAllowed("gmail", "GMAIL_DELETE_EMAIL")).isFalse();
    // a toolkit without tool entries allows all its tools
    assertThat(allow.toolAllowed("github", "GITHUB_DELETE_REPO")).isTrue();
    // a tool of a toolkit that is not allowed is never allowed
    assertThat(AllowList.of(List.of("github"), Map.of("slack", List.of("*"))).toolAllowed("slack", "SLACK_X")).isFalse();
  }

  @Test
  void aLeadingWildcardMatchesBySuffixForToolkitsToolsAndToolkitKeys() {
    AllowList allow = AllowList.of(List.of("*drive", "gmail"),
        Map.of("gmail", List.of("*_EMAILS", "GMAIL_*_DRAFT"), "*drive", List.of("*_LIST_FILES")));
    assertThat(allow.toolkitAllowed("googledrive")).isTrue();
    assertThat(allow.toolkitAllowed("OneDrive")).isTrue();
    assertThat(allow.toolkitAllowed("drivewealth")).isFalse();
    assertThat(allow.toolAllowed("gmail", "GMAIL_FETCH_EMAILS")).isTrue();
    assertThat(allow.toolAllowed("gmail", "GMAIL_CREATE_DRAFT")).isTrue();
    assertThat(allow.toolAllowed("gmail", "GMAIL_SEND_EMAIL")).isFalse();
    assertThat(allow.toolAllowed("googledrive", "GOOGLEDRIVE_LIST_FILES")).isTrue();
    assertThat(allow.toolAllowed("googledrive", "GOOGLEDRIVE_DELETE_FILE")).isFalse();
    assertThat(allow.toolAllowed("onedrive", "ONEDRIVE_LIST_FILES")).isTrue();
    assertThat(AllowList.of(List.of("*"), null).toolkitAllowed("anything")).isTrue();
    // a toolkit key with no entries allows none of its tools
    assertThat(AllowList.of(null, Map.of("slack", List.of())).toolAllowed("slack", "SLACK_SEND")).isFalse();
  }

  @Test
  void anEmptyEntryIsRefusedWhenTheListIsBuilt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AllowList.of(List.of("github", " "), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AllowList.of(null, Map.of("gmail", List.of(""))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gmail");
  }
}

package dev.ratchet.verticles.impl.cluster;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where sessions without a live owner go: every member computes the same member from the same
 * membership, a member leaving moves only its own sessions, and sessions spread over the members.
 */
class PlacementTest {

  private static final List<String> THREE = List.of("node-a", "node-b", "node-c");

  @Test
  void everyMemberPlacesASessionOnTheSameMemberWhateverOrderItListsThemIn() {
    for (int i = 0; i < 1_000; i++) {
      String session = "s-" + i;
      assertThat(Placement.owner(session, List.of("node-c", "node-a", "node-b")))
          .isEqualTo(Placement.owner(session, THREE));
    }
  }

  @Test
  void aMemberLeavingMovesOnlyTheSessionsItHad() {
    for (int i = 0; i < 3_000; i++) {
      String session = "s-" + i;
      String before = Placement.owner(session, THREE);
      String after = Placement.owner(session, List.of("node-a", "node-c"));
      if (!before.equals("node-b")) {
        assertThat(after).as(session).isEqualTo(before);
      }
    }
  }

  @Test
  void sessionsSpreadOverTheMembers() {
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < 3_000; i++) {
      counts.merge(Placement.owner("session-" + i, THREE), 1, Integer::sum);
    }
    assertThat(counts).containsOnlyKeys(THREE);
    assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(800, 1_200));
  }

  @Test
  void noMembersPlaceNothing() {
    assertThat(Placement.owner("s-1", List.of())).isNull();
  }
}

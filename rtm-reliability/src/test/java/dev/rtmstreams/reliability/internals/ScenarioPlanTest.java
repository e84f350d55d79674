package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The fault and checker each scenario picks. */
class ScenarioPlanTest {

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void shouldPickAFaultThatStrikesUnlessTheScenarioRunsUndisturbedOrPoisoned(Scenario sc) {
        Scenario.Plan plan = sc.plan(SyntheticReports.settings(sc));

        boolean strikes = sc != Scenario.POISON && sc != Scenario.SOAK;
        assertThat(plan.fault().strike().isPresent()).as("%s", sc).isEqualTo(strikes);
    }

    @Test
    void shouldPickTheFaultOfEachScenarioWhenPlanned() {
        assertThat(plan(Scenario.SERVICE_CRASH).fault()).isInstanceOf(ServiceKillFault.class);
        assertThat(plan(Scenario.PENDING_TIMERS).fault()).isInstanceOf(ServiceKillFault.class);
        assertThat(plan(Scenario.LONG_OUTAGE).fault()).isInstanceOf(ServiceKillFault.class);
        assertThat(plan(Scenario.STATE_WIPE).fault()).isInstanceOf(ServiceKillFault.class);
        assertThat(plan(Scenario.BROKER_RESTART).fault()).isInstanceOf(BrokerRestartFault.class);
        assertThat(plan(Scenario.POISON).fault()).isInstanceOf(PoisonFault.class);
        assertThat(plan(Scenario.INSTANCE_FAILOVER).fault()).isInstanceOf(InstanceKillFault.class);
        assertThat(plan(Scenario.SOAK).fault()).isSameAs(Fault.NONE);
    }

    @Test
    void shouldRunTwoInstancesOnlyWhenOneIsKilledAndTheOtherTakesOver() {
        for (Scenario sc : Scenario.values()) {
            if (!sc.changesGroup()) {
                assertThat(plan(sc).fault().instances())
                        .as("%s", sc)
                        .isEqualTo(sc == Scenario.INSTANCE_FAILOVER ? 2 : 1);
            }
        }
    }

    @Test
    void shouldRunTheInstancesOfTheGroupOptionsAndStartOneFirstOnlyWhenScalingOut() {
        for (Scenario sc :
                List.of(Scenario.SCALE_OUT, Scenario.SCALE_IN, Scenario.ROLLING_RESTART, Scenario.INSTANCE_KILL)) {
            Fault fault = plan(sc).fault();

            assertThat(sc.changesGroup()).isTrue();
            assertThat(fault).isInstanceOf(GroupChangeFault.class);
            assertThat(plan(sc).checker()).isInstanceOf(GroupChangeChecker.class);
            assertThat(fault.instances()).as("%s", sc).isEqualTo(3);
            assertThat(fault.startedAtFirst()).as("%s", sc).isEqualTo(sc == Scenario.SCALE_OUT ? 1 : 3);
        }
    }

    @Test
    void shouldCheckOnlyTheOracleWhenTheScenarioPromisesNothingMore() {
        assertThat(plan(Scenario.SERVICE_CRASH).checker()).isSameAs(Checker.ORACLE_ONLY);
        assertThat(plan(Scenario.BROKER_RESTART).checker()).isSameAs(Checker.ORACLE_ONLY);
        assertThat(plan(Scenario.LONG_OUTAGE).checker()).isInstanceOf(StraddleChecker.class);
        assertThat(plan(Scenario.STATE_WIPE).checker()).isInstanceOf(StateWipeChecker.class);
        assertThat(plan(Scenario.POISON).checker()).isInstanceOf(PoisonChecker.class);
        assertThat(plan(Scenario.INSTANCE_FAILOVER).checker()).isInstanceOf(FailoverChecker.class);
        assertThat(plan(Scenario.SOAK).checker()).isInstanceOf(SoakChecker.class);
    }

    private static Scenario.Plan plan(Scenario sc) {
        return sc.plan(SyntheticReports.settings(sc));
    }
}

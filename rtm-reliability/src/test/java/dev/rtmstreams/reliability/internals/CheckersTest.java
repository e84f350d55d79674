package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each scenario's checks given synthetic observations: what passes, what fails and with which figures. */
class CheckersTest {

    private static final ProbeSet STRADDLE = new ProbeSet(
            List.of("probe-r-straddle-0", "probe-r-straddle-1"),
            List.of("probe-r-simp-0", "probe-r-simp-1"),
            List.of(1L, 2L),
            0,
            0);

    @Test
    void shouldPassTheOracleWhenNothingIsMissingUnexpectedOrUnsent() {
        assertThat(SyntheticReports.oracle(0, 0, 0, 0).failures(true)).isEmpty();
    }

    @Test
    void shouldFailTheOracleNamingEachCountWhenOutputsAreMissingUnexpectedOrInputsUnsent() {
        assertThat(SyntheticReports.oracle(3, 0, 2, 1).failures(false))
                .containsExactly(
                        "3 expected outputs missing (oracle)",
                        "2 unexpected outputs (oracle)",
                        "1 input records the generator could not send");
    }

    @Test
    void shouldFailOnDuplicatesOnlyWhenTheScenarioPromisesNone() {
        assertThat(SyntheticReports.oracle(0, 7, 0, 0).failures(false)).isEmpty();
        assertThat(SyntheticReports.oracle(0, 7, 0, 0).failures(true)).containsExactly("7 duplicated outputs (oracle)");
    }

    @Test
    void shouldTreatAFigureTheLoadRunLeftOutAsZeroWhenJudging() {
        LoadOracle o = new LoadOracle(
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

        assertThat(o.failures(true)).isEmpty();
    }

    @Test
    void shouldRecordStraddlingMatchesAndPassWhenEveryOutputWasSeen() {
        Findings f = new Findings();
        ProbeOutputs outputs = new FixedProbeOutputs().seenOnce(STRADDLE.straddleOutputs());

        StraddleChecker.judge(STRADDLE, true, outputs, f);

        assertThat(f.failures()).isEmpty();
        assertThat(f.sections().straddlingMatches())
                .isEqualTo(new ChaosReport.StraddlingMatches("requests 2, impressions 2", "acks 2, clicks 2", 4, 4));
    }

    @Test
    void shouldFailNamingTheOutputsNotSeenWhenAStraddlingMatchWasNotEmitted() {
        Findings f = new Findings();
        ProbeOutputs outputs = new FixedProbeOutputs()
                .seen("log:probe-r-straddle-0:a1", 1)
                .seen("log:probe-r-straddle-1:a1", 1)
                .seen("click:probe-r-simp-0-click", 1);

        StraddleChecker.judge(STRADDLE, outputs.countSeen(STRADDLE.straddleOutputs()) == 4, outputs, f);

        assertThat(f.failures())
                .containsExactly("matches straddling the crash not emitted: [click:probe-r-simp-1-click]");
        assertThat(f.sections().straddlingMatches().observedOutputs()).isEqualTo(3);
    }

    @Test
    void shouldPassPendingTimersWhenTheControlMatchedAndNoExpiredTransactionDid() {
        Findings f = new Findings();

        PendingTimersChecker.judge(new ChaosReport.PendingTimers(3, 0, true), f);

        assertThat(f.failures()).isEmpty();
        assertThat(f.sections().pendingTimers()).isEqualTo(new ChaosReport.PendingTimers(3, 0, true));
    }

    @Test
    void shouldFailPendingTimersWhenATimerDidNotFireOrTheControlWasNotMatched() {
        Findings f = new Findings();

        PendingTimersChecker.judge(new ChaosReport.PendingTimers(3, 2, false), f);

        assertThat(f.failures())
                .containsExactly(
                        "pending_timers: the control transaction's acks were not matched (probe mechanism broken)",
                        "pending_timers: 2 transactions still had their state after the correlation window "
                                + "(timer did not fire / expired state came back)");
    }

    @Test
    void shouldSayTimersWereDueAfterTheRestartWhenTheyCameDueAfterTheServiceWasRunning() {
        // sent at 1 s, kill at 10 s, RUNNING again at 40 s
        InjectedFault.ServiceKill kill = SyntheticReports.kill(null, 1000);

        assertThat(TimerProbes.due(1_000_000_000L, Duration.ofMinutes(2), kill))
                .isEqualTo(new ChaosReport.TimersDue(true, 111.0));
        assertThat(TimerProbes.due(1_000_000_000L, Duration.ofSeconds(30), kill))
                .isEqualTo(new ChaosReport.TimersDue(false, 21.0));
    }

    @Test
    void shouldPassTheWipeWhenNothingExpiredCameBackAndAFreshPairJoined() {
        Findings f = new Findings();

        StateWipeChecker.judge(SyntheticReports.wipe(0, 0, true), f);

        assertThat(f.failures()).isEmpty();
        assertThat(f.sections().wipeProbes()).isEqualTo(SyntheticReports.wipe(0, 0, true));
    }

    @Test
    void shouldFailTheWipeForEachBrokenPromiseWhenObserved() {
        Findings f = new Findings();

        StateWipeChecker.judge(SyntheticReports.wipe(1, 2, false), f);

        assertThat(f.failures())
                .containsExactly(
                        "watermark regressed after wipe+restore: a pair 600 s behind the stream was joined",
                        "expired state came back after wipe+restore: 2 expired transactions matched",
                        "joins did not continue after wipe+restore: a fresh pair was not joined within 60 s");
    }

    @Test
    void shouldFailTheWipeWhenTheTimersHadNotDeletedTheProbesBeforeIt() {
        Findings f = new Findings();
        ChaosReport.WipeProbes notCleared =
                new ChaosReport.WipeProbes(43_543, -1, 100, 20_396, 21_006, 600, 0, 3, 0, true);

        StateWipeChecker.judge(notCleared, f);

        assertThat(f.failures())
                .containsExactly("the probe transactions' expiry timers had not deleted their state before the wipe"
                        + " (the live state endpoint still held it): the check of expired state would not exercise"
                        + " the expiry path");
    }

    @Test
    void shouldPassPoisonWhenEveryPoisonRecordWasDeadLetteredWithItsHeaders() {
        Findings f = new Findings();

        PoisonChecker.judge(SyntheticReports.poison(0, 0), f);

        assertThat(f.failures()).isEmpty();
        assertThat(f.sections().poison()).isEqualTo(SyntheticReports.poison(0, 0));
    }

    @Test
    void shouldFailPoisonWhenRecordsNeverReachedTheDlqOrLackHeaders() {
        Findings f = new Findings();

        PoisonChecker.judge(SyntheticReports.poison(4, 2), f);

        assertThat(f.failures())
                .containsExactly(
                        "4 poison records never reached the dead-letter topic",
                        "2 dead-lettered records lack error/source headers");
    }

    @Test
    void shouldRequireZeroDuplicatesWhenPoisonOrSoakButNotForTheFaultScenarios() {
        for (Scenario sc : Scenario.values()) {
            boolean promised = sc == Scenario.POISON || sc == Scenario.SOAK;
            assertThat(sc.plan(SyntheticReports.settings(sc)).checker().requiresZeroDuplicates())
                    .as("%s", sc)
                    .isEqualTo(promised);
        }
    }

    @Test
    void shouldFailTheFailoverWhenTheSurvivorDidNotTakeEveryTaskOver() {
        Findings passed = new Findings();
        FailoverChecker.judge(SyntheticReports.failover(11_123), passed);
        Findings failed = new Findings();
        FailoverChecker.judge(SyntheticReports.failover(-1), failed);

        assertThat(passed.failures()).isEmpty();
        assertThat(failed.failures())
                .containsExactly("the survivor did not report all 4 tasks within 120 s of the kill");
    }

    @Test
    void shouldRefuseToCheckTheFailoverWhenNoInstanceWasKilled() {
        assertThatThrownBy(() -> new FailoverChecker().check(null, Optional.empty(), new Findings()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("instance-failover");
    }

    @Test
    void shouldJudgeSoakBoundednessOnlyWhenTheLoadLastedThreeStateHorizons() {
        assertThat(SoakChecker.boundedJudged(Duration.ofMinutes(20))).isFalse();
        assertThat(SoakChecker.boundedJudged(Duration.ofMinutes(21))).isTrue();
    }

    @Test
    void shouldRefuseToRecordASectionTwiceWhenTwoCheckersWriteIt() {
        Findings f = new Findings();
        PendingTimersChecker.judge(new ChaosReport.PendingTimers(3, 0, true), f);

        assertThatThrownBy(() -> PendingTimersChecker.judge(new ChaosReport.PendingTimers(3, 0, true), f))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pending_timers");
    }

    @Test
    void shouldRunEveryHookOfEachCheckerInOrderWhenCombined() throws Exception {
        List<String> calls = new ArrayList<>();
        Checker combined = Checker.allOf(recording("a", false, calls), recording("b", true, calls));

        combined.beforeLoad(null);
        combined.loadStarted(null);
        combined.beforeFault(null);
        combined.whileDown(null);
        combined.check(null, Optional.empty(), new Findings());

        assertThat(combined.requiresZeroDuplicates()).isTrue();
        assertThat(calls)
                .containsExactly(
                        "a beforeLoad",
                        "b beforeLoad",
                        "a loadStarted",
                        "b loadStarted",
                        "a beforeFault",
                        "b beforeFault",
                        "a whileDown",
                        "b whileDown",
                        "a check",
                        "b check");
    }

    private static Checker recording(String name, boolean zeroDuplicates, List<String> calls) {
        return new Checker() {
            @Override
            public boolean requiresZeroDuplicates() {
                return zeroDuplicates;
            }

            @Override
            public void beforeLoad(RunContext run) {
                calls.add(name + " beforeLoad");
            }

            @Override
            public void loadStarted(RunContext run) {
                calls.add(name + " loadStarted");
            }

            @Override
            public void beforeFault(RunContext run) {
                calls.add(name + " beforeFault");
            }

            @Override
            public void whileDown(RunContext run) {
                calls.add(name + " whileDown");
            }

            @Override
            public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) {
                calls.add(name + " check");
            }
        };
    }

    @Test
    void shouldFailTheBrokerFaultWhenTheClusterDidNotFailOverOrGetItsReplicasBack() {
        Findings passed = new Findings();
        BrokerFaultChecker.judge(SyntheticReports.brokerFault(3_200L, 14_500), passed);
        Findings rolling = new Findings();
        BrokerFaultChecker.judge(SyntheticReports.brokerFault(null, 31_000), rolling);
        Findings noFailover = new Findings();
        BrokerFaultChecker.judge(SyntheticReports.brokerFault(-1L, 14_500), noFailover);
        Findings noIsr = new Findings();
        BrokerFaultChecker.judge(SyntheticReports.brokerFault(3_200L, -1), noIsr);

        assertThat(passed.failures()).isEmpty();
        assertThat(rolling.failures())
                .as("the rolling restart measures no failover")
                .isEmpty();
        assertThat(noFailover.failures()).singleElement().asString().startsWith("no failover within 120 s");
        assertThat(noIsr.failures())
                .singleElement()
                .asString()
                .startsWith("the in-sync replicas were not full again within 120 s");
    }

    @Test
    void shouldCountOnlyTheRestoreConsumersClientLevelRecordsWhenSummingRestores() {
        String metrics = String.join(
                "\n",
                "kafka_streams_consumer_fetch_manager_metrics_records_consumed_total{client_id=\"a-StreamThread-1-restore-consumer\",} 40.0",
                "kafka_streams_consumer_fetch_manager_metrics_records_consumed_total{client_id=\"a-StreamThread-1-restore-consumer\",topic=\"x-changelog\",} 40.0",
                "kafka_streams_consumer_fetch_manager_metrics_records_consumed_total{client_id=\"a-StreamThread-2-restore-consumer\",} 2.0",
                "kafka_streams_consumer_fetch_manager_metrics_records_consumed_total{client_id=\"a-StreamThread-1-consumer\",} 900.0",
                "");

        assertThat(BrokerFaultChecker.restoredRecords(metrics)).isEqualTo(42);
        assertThat(BrokerFaultChecker.restoredRecords(null)).isEqualTo(-1);
    }
}

package footlights.peers.pekko;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * banking: a teller's transfers between account actors, each a debit, a credit and a reply
 * (Savina's bank transaction).
 *
 * <p>The guardian is the teller. It spawns {@code accounts} {@link #account}s, numbered from 0,
 * each with the balance 1000000, and has a generator seeded with 0: for each of
 * {@code transactions} transfers it draws {@code src = below(accounts)}, {@code dst = (src + 1 +
 * below(accounts-1)) mod accounts} and {@code amount = below(1000) + 1}, and sends account
 * {@code src} a {@link Debit} for {@code dst} at once, without waiting for earlier transfers. The
 * source subtracts the amount and sends the destination a {@link Credit}; the destination adds it
 * and replies {@link Completed} to the teller. With every reply in, the teller asks each account
 * for its {@link Balance} and prints {@code TRANSFERS:BALANCES}, the number of replies and the sum
 * over accounts of {@code (k+1)*balance_k}, wrapping.
 */
public final class Banking {

    /** What an account receives. */
    public sealed interface ToAccount permits Debit, Credit, GetBalance {}

    /** Take {@code amount} from this account and credit it to {@code destination}. */
    public record Debit(long amount, ActorRef<ToAccount> destination, ActorRef<ToTeller> teller) implements ToAccount {}

    /** Add {@code amount} to this account and tell the teller. */
    public record Credit(long amount, ActorRef<ToTeller> teller) implements ToAccount {}

    /** Tell the teller the balance. */
    public record GetBalance(ActorRef<ToTeller> teller) implements ToAccount {}

    /** What the teller receives. */
    public sealed interface ToTeller permits Completed, Balance {}

    /** A transfer is complete. */
    public record Completed() implements ToTeller {}

    /** Account {@code id}'s balance. */
    public record Balance(long id, long balance) implements ToTeller {}

    private static final Completed COMPLETED = new Completed();

    private Banking() {}

    /** The guardian, which is the teller. */
    public static Behavior<ToTeller> create(int accounts, long transactions, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> new Teller(context, accounts, transactions, outcome));
    }

    /** The teller: every transfer at once, then the replies, then the balances. */
    static final class Teller extends AbstractBehavior<ToTeller> {
        private final long transactions;
        private final List<ActorRef<ToAccount>> accounts;
        private final CompletableFuture<String> outcome;
        private long completed;
        private int balances;
        private long checksum;

        private Teller(ActorContext<ToTeller> context, int accounts, long transactions,
                CompletableFuture<String> outcome) {
            super(context);
            this.transactions = transactions;
            this.outcome = outcome;
            this.accounts = new ArrayList<>(accounts);
            for (int k = 0; k < accounts; k++) {
                this.accounts.add(context.spawn(account(k, 1_000_000), "account-" + k));
            }
            SplitMix64 random = new SplitMix64(0);
            ActorRef<ToTeller> self = context.getSelf();
            for (long i = 0; i < transactions; i++) {
                long src = random.below((long) accounts);
                long dst = (src + 1 + random.below((long) accounts - 1)) % accounts;
                long amount = random.below(1000L) + 1;
                this.accounts.get((int) src).tell(new Debit(amount, this.accounts.get((int) dst), self));
            }
            if (transactions == 0) {
                askBalances();
            }
        }

        @Override
        public Receive<ToTeller> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Completed.class, done -> onCompleted())
                    .onMessage(Balance.class, this::onBalance)
                    .build();
        }

        private Behavior<ToTeller> onCompleted() {
            if (++completed == transactions) {
                askBalances();
            }
            return this;
        }

        private void askBalances() {
            GetBalance get = new GetBalance(getContext().getSelf());
            accounts.forEach(account -> account.tell(get));
        }

        private Behavior<ToTeller> onBalance(Balance balance) {
            checksum += (balance.id() + 1) * balance.balance();
            if (++balances < accounts.size()) {
                return this;
            }
            outcome.complete("check=" + SplitMix64.joined(completed, checksum));
            return Behaviors.stopped();
        }
    }

    /** Account {@code id} with {@code balance}. */
    static Behavior<ToAccount> account(long id, long balance) {
        return Behaviors.setup(context -> new Account(context, id, balance));
    }

    /** An account: its balance, changed by debits and credits. */
    static final class Account extends AbstractBehavior<ToAccount> {
        private final long id;
        private long balance;

        private Account(ActorContext<ToAccount> context, long id, long balance) {
            super(context);
            this.id = id;
            this.balance = balance;
        }

        @Override
        public Receive<ToAccount> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Debit.class, this::onDebit)
                    .onMessage(Credit.class, this::onCredit)
                    .onMessage(GetBalance.class, this::onGetBalance)
                    .build();
        }

        private Behavior<ToAccount> onDebit(Debit debit) {
            balance -= debit.amount();
            debit.destination().tell(new Credit(debit.amount(), debit.teller()));
            return this;
        }

        private Behavior<ToAccount> onCredit(Credit credit) {
            balance += credit.amount();
            credit.teller().tell(COMPLETED);
            return this;
        }

        private Behavior<ToAccount> onGetBalance(GetBalance get) {
            get.teller().tell(new Balance(id, balance));
            return this;
        }
    }
}

package footlights.peers.pekko;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * threadring: one token hops around a ring of {@code actors} actors.
 *
 * <p>Each ring member is a {@link Member} actor that knows its id (1-based) and the
 * {@link ActorRef} of its successor. The guardian spawns member 1 first, then members
 * {@code actors} down to 2, each created with the reference of the one after it (member
 * {@code actors} points back to member 1). Member 1 learns its successor from a {@link Link}
 * message, which the guardian sends just before the {@link Token}; both come from the guardian, so
 * Pekko delivers them in that order. A member that gets token {@code t > 0} passes {@code t - 1}
 * on; the member that gets token 0 reports its id to the guardian and stops. The guardian, which
 * only waits for that report, turns the id into the check and stops, ending the run.
 */
public final class ThreadRing {

    /** The protocol of a ring member. */
    public sealed interface Command permits Link, Token {}

    /** Tells member 1 its successor, which did not exist when member 1 was spawned. */
    public record Link(ActorRef<Command> next) implements Command {}

    /** The token: how many hops are still to go. */
    public record Token(int remaining) implements Command {}

    /** Sent to the guardian by the member that received token 0. */
    public record Finished(int id) {}

    private ThreadRing() {}

    /** The guardian: builds the ring, starts the token and waits for the finishing member's id. */
    public static Behavior<Finished> create(int actors, int hops, CompletableFuture<String> outcome) {
        return Behaviors.setup(context -> {
            ActorRef<Finished> reporter = context.getSelf();
            ActorRef<Command> first = context.spawn(Member.create(1, null, reporter), "member-1");
            ActorRef<Command> next = first;
            for (int id = actors; id >= 2; id--) {
                next = context.spawn(Member.create(id, next, reporter), "member-" + id);
            }
            first.tell(new Link(next));
            first.tell(new Token(hops));
            return Behaviors.receiveMessage(finished -> {
                outcome.complete("check=" + finished.id());
                return Behaviors.stopped();
            });
        });
    }

    /** A ring member: forwards the token, decremented, to its successor until the token is 0. */
    static final class Member extends AbstractBehavior<Command> {
        private final int id;
        private final ActorRef<Finished> reporter;
        private ActorRef<Command> next;

        static Behavior<Command> create(int id, ActorRef<Command> next, ActorRef<Finished> reporter) {
            return Behaviors.setup(context -> new Member(context, id, next, reporter));
        }

        private Member(ActorContext<Command> context, int id, ActorRef<Command> next, ActorRef<Finished> reporter) {
            super(context);
            this.id = id;
            this.next = next;
            this.reporter = reporter;
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Token.class, this::onToken)
                    .onMessage(Link.class, this::onLink)
                    .build();
        }

        private Behavior<Command> onLink(Link link) {
            next = link.next();
            return this;
        }

        private Behavior<Command> onToken(Token token) {
            if (token.remaining() == 0) {
                reporter.tell(new Finished(id));
                return Behaviors.stopped();
            }
            next.tell(new Token(token.remaining() - 1));
            return this;
        }
    }
}

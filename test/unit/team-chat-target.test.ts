// Issue 17 #2 (spec "POST /api/teams/:id/chat": target resolution) and #4
// (hand-over lines): who answers a message, as plain functions over a roster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leadingMention } from '../../shared/team-chat/routing/mention.ts';
import { handOvers, resolveTarget, type RosterAgent, type TeamRoster } from '../../shared/team-chat/routing/answerer.ts';

const agent = (id: string, name: string): RosterAgent => ({ id, name, gatewayId: id });
const ann = agent('a1', 'Ann');
const annLee = agent('a2', 'Ann Lee');
const bob = agent('b1', 'Bob');
const lead = agent('lead', 'Lead');
const roster: TeamRoster = { teamId: 't', members: [ann, annLee, bob], lead };

const S = 'Team chat (issue 17 #2)';

void test(`${S}: an explicit targetAgentId on the roster wins over a mention`, () => {
  assert.equal(resolveTarget(roster, '@Bob hello', 'a1'), ann);
});

void test(`${S}: a targetAgentId that is not a roster member is ignored`, () => {
  assert.equal(resolveTarget(roster, 'hello', 'stranger'), lead);
  assert.equal(resolveTarget(roster, '@Bob hello', 'stranger'), bob);
  // The lead is addressable but not a member: an explicit id honours members only.
  assert.equal(resolveTarget(roster, '@Bob hi', 'lead'), bob);
});

void test(`${S}: a leading mention picks the longest matching name, case-insensitively`, () => {
  assert.equal(resolveTarget(roster, '@ann lee can you look?'), annLee);
  assert.equal(resolveTarget(roster, '@ANN can you look?'), ann);
  assert.equal(resolveTarget(roster, '@Bob\tplease'), bob);
});

void test(`${S}: a mention must be followed by whitespace or the end`, () => {
  assert.equal(leadingMention('@Bobby hi', [bob]), null);
  assert.equal(leadingMention('@Bob, hi', [bob]), null);
  assert.equal(resolveTarget(roster, '@Bobby hi'), lead);
});

void test(`${S}: a mention that is not at the start is ignored`, () => {
  assert.equal(resolveTarget(roster, 'hello @Bob'), lead);
  assert.equal(resolveTarget(roster, ' @Bob hello'), lead);
});

void test(`${S}: a mention of a name not on the roster goes to the lead`, () => {
  assert.equal(resolveTarget(roster, '@Zed are you there?'), lead);
});

void test(`${S}: a message that is only a mention goes to that agent`, () => {
  assert.equal(resolveTarget(roster, '@Bob'), bob);
  assert.equal(resolveTarget(roster, '@Ann Lee'), annLee);
});

void test(`${S}: no member and no lead: no target`, () => {
  assert.equal(resolveTarget({ teamId: 't', members: [], lead: null }, '@Bob hi'), null);
});

void test('Team chat (issue 17 #4): each line of a reply that opens with @<name> of another agent hands the floor over, once per agent', () => {
  const reply = 'Thanks.\n@Bob please check the numbers\n  @Ann Lee and you the copy\n@Bob again\n@Lead is me\nnot @Ann here';
  assert.deepEqual(handOvers(reply, roster, 'lead').map((a) => a.id), ['b1', 'a2']);
  // A member can address the lead; nobody hands over to themselves.
  assert.deepEqual(handOvers('@Lead done\n@Bob me', roster, 'b1').map((a) => a.id), ['lead']);
});

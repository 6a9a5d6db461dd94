import { authCases } from './auth.case.ts';
import { channelWriteCases } from './channel-writes.case.ts';
import { editCases } from './edit.case.ts';
import { eventCases } from './events.case.ts';
import { flagCases } from './flags.case.ts';
import type { CaseSuite } from './harness.ts';
import { inviteCases } from './invites.case.ts';
import { messageByIdCases, messagesFetchCases } from './messages-fetch.case.ts';
import { personalDataCases } from './personal-data.case.ts';
import { personalStateCases } from './personal-state.case.ts';
import { reactionCases } from './reactions.case.ts';
import { channelsCases, usersCases } from './reads.case.ts';
import { registerCases } from './register.case.ts';
import { scheduledMessageCases } from './scheduled-messages.case.ts';
import { sendCases } from './send.case.ts';
import { subscriptionCases } from './subscriptions.case.ts';
import { wireCases } from './wire.case.ts';
import { usersAdminCases } from './users-admin.case.ts';
import { uploadCases } from './uploads.case.ts';
import { realmAdminCases } from './realm-admin.case.ts';
import { messageExtraCases } from './message-extras.case.ts';

/** Every conformance suite, in the order both hosts run them; each gets a fresh realm. */
export const CONFORMANCE_SUITES: CaseSuite[] = [
  authCases,
  wireCases,
  sendCases,
  messagesFetchCases,
  messageByIdCases,
  editCases,
  reactionCases,
  flagCases,
  registerCases,
  eventCases,
  usersCases,
  channelsCases,
  subscriptionCases,
  scheduledMessageCases,
  inviteCases,
  usersAdminCases,
  channelWriteCases,
  personalDataCases,
  uploadCases,
  personalStateCases,
  realmAdminCases,
  messageExtraCases,
];

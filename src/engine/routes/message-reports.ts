import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_TYPES, type ReportType, reportMessage } from '../actions/report-message.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { oneOf, pathId, str, VAR } from '../http/param-types.ts';

const reportTypes = Object.keys(REPORT_TYPES) as [ReportType, ...ReportType[]];

export const messageReportEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/{message_id}/report',
    params: {
      message_id: pathId(),
      report_type: oneOf(reportTypes),
      description: str()
        .max(MAX_REPORT_DESCRIPTION_LENGTH, { error: `${VAR} is too long (limit: ${MAX_REPORT_DESCRIPTION_LENGTH} characters)` })
        .default(''),
    },
    async write(scope, params) {
      await reportMessage(scope, { messageId: params.message_id, reportType: params.report_type, description: params.description });
      return {};
    },
  }),
];

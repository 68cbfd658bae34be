import { defineNotification, escapeHtml, localize } from '@framework/notify';

/** Sent to the assignee when a task is assigned (PUT /tasks/{id}/assignee): email and SMS, in English or French. */
export default defineNotification<{ taskTitle: string; assigneeName: string; assignedBy: string }>({
  email: {
    subject: (d, { locale }) => localize(locale, { en: `Task assigned: ${d.taskTitle}`, fr: `Tâche assignée : ${d.taskTitle}` }),
    mjml: (d, { locale }) => `<mjml>
  <mj-body background-color="#f4f4f5">
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-size="18px" font-weight="bold">${escapeHtml(localize(locale, { en: `Hi ${d.assigneeName},`, fr: `Bonjour ${d.assigneeName},` }))}</mj-text>
        <mj-text>${escapeHtml(localize(locale, { en: `${d.assignedBy} assigned you a task:`, fr: `${d.assignedBy} vous a assigné une tâche :` }))}</mj-text>
        <mj-text font-size="16px"><strong>${escapeHtml(d.taskTitle)}</strong></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`,
    text: (d, { locale }) => localize(locale, { en: `Hi ${d.assigneeName},\n\n${d.assignedBy} assigned you a task: ${d.taskTitle}`, fr: `Bonjour ${d.assigneeName},\n\n${d.assignedBy} vous a assigné une tâche : ${d.taskTitle}` }),
  },
  sms: (d, { locale }) => localize(locale, { en: `Task assigned to you: ${d.taskTitle}`, fr: `Tâche assignée : ${d.taskTitle}` }),
});

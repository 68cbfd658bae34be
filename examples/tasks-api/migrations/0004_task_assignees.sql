-- Who a task is assigned to, with the contact details "task assigned" is sent to (PUT /tasks/{id}/assignee).
CREATE TABLE task_assignees (
  task_id uuid PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  name text NOT NULL,
  email text NOT NULL,
  phone text,
  locale text,
  assigned_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX task_assignees_email ON task_assignees (email);

-- down
DROP TABLE task_assignees;

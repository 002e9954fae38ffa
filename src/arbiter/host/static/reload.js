// a version being built or checked: its page shows the outcome when there is one
setTimeout(() => location.reload(), 2000);

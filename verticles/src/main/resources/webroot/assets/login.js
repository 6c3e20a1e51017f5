// Shows the error line when the server sent us back here after a failed login.
document.addEventListener('DOMContentLoaded', () => {
  if (new URLSearchParams(location.search).has('error')) {
    document.getElementById('login-error').hidden = false;
  }
});

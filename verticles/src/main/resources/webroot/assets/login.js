// Shows the error line when the server sent us back here after a failed or refused login.
document.addEventListener('DOMContentLoaded', () => {
  const error = new URLSearchParams(location.search).get('error');
  if (error !== null) {
    document.getElementById(error === 'locked' ? 'login-locked' : 'login-error').hidden = false;
  }
});

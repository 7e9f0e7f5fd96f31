document.getElementById('app')!.textContent = 'Tether options';
